// Anthropic message batch results (JSON Lines, one line per request of the batch) as they pass
// through gw on their way to the client: the usage of each succeeded result, read with the
// Anthropic codec and summed per model, one line at a time (never the whole download). A
// batch's work ran at the provider, not through gw: this download is where its usage shows.
// https://docs.anthropic.com/en/api/retrieving-message-batch-results
import type { Usage } from '../../canonical/usage.js';
import { codecForDialect } from '../../formats/codec-registry.js';

/** Lines longer than this (a result with a huge answer) are skipped unread rather than buffered. */
const MAX_LINE_CHARS = 8 * 1024 * 1024;

export class BatchResultsUsage {
  private partial = '';
  private skipping = false;
  private readonly decoder = new TextDecoder();
  private readonly codec = codecForDialect('anthropic');
  /** Summed usage per model of the succeeded results. */
  readonly byModel = new Map<string, Usage>();

  push(chunk: Uint8Array): void {
    const text = this.decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      if (!this.skipping) this.readLine(this.partial + text.slice(start, newline));
      this.partial = '';
      this.skipping = false;
      start = newline + 1;
    }
    if (this.skipping) return;
    this.partial += text.slice(start);
    if (this.partial.length > MAX_LINE_CHARS) { this.partial = ''; this.skipping = true; }
  }

  end(): void {
    if (!this.skipping && this.partial.trim() !== '') this.readLine(this.partial);
    this.partial = '';
  }

  private readLine(line: string): void {
    if (!line.includes('"succeeded"')) return;
    let result: { result?: { type?: unknown; message?: { model?: unknown } } };
    try { result = JSON.parse(line) as typeof result; } catch { return; }
    const message = result.result?.type === 'succeeded' ? result.result.message : undefined;
    if (!message || typeof message.model !== 'string') return;
    const usage = this.codec.readUsage(message);
    if (!usage) return;
    this.byModel.set(message.model, addUsage(this.byModel.get(message.model) ?? {}, usage));
  }

  /** Every model's usage together. */
  total(): Usage {
    let total: Usage = {};
    for (const usage of this.byModel.values()) total = addUsage(total, usage);
    return total;
  }
}

/** `sum` with each of `usage`'s counts added (in place). */
function addUsage(sum: Usage, usage: Usage): Usage {
  for (const [field, value] of Object.entries(usage) as Array<[keyof Usage, number | undefined]>) {
    if (value !== undefined) sum[field] = (sum[field] ?? 0) + value;
  }
  return sum;
}
