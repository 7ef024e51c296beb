// What a realtime provider sends its client, watched on the way through: the usage
// of each `response.done` (summed, and settled against the tokens-per-minute limits
// when the session ends: an admission settles once), and, when the team turned output
// scanning on (`gw dlp output on`), the generated text. Text arrives as deltas, so
// they go through the same bounded look-behind as streamed HTTP answers
// (src/dlp/scan-stream-text.ts): a secret split across two deltas is still seen.
// The `*.done` events repeat text the deltas already carried and are not scanned
// again. A block sends an `error` event and ends the session with 1008 (policy
// violation, RFC 6455 §7.4.1): what was sent before stays sent, as with HTTP streams.
// https://platform.openai.com/docs/api-reference/realtime-server-events
import type { AuditTokens } from '../../audit/record.js';
import { createStreamTextScanner, type StreamTextScanner } from '../../dlp/scan-stream-text.js';
import type { DlpSettings } from '../../dlp/dlp-config.js';
import { blockedReply, type RealtimeDlpTally } from './scan-realtime-event.js';
import { isPlainObject } from '../../is-plain-object.js';

/** Server events whose `delta` is generated text (GA names and the beta's). Audio deltas are base64 and skipped. */
const TEXT_DELTAS = new Set([
  'response.text.delta', 'response.output_text.delta', 'response.audio_transcript.delta',
  'response.output_audio_transcript.delta', 'response.function_call_arguments.delta',
]);

export type ProviderEventVerdict = { action: 'forward' } | { action: 'stop'; ruleId: string; reply: string };

export interface RealtimeOutputWatcher {
  inspect(text: string): ProviderEventVerdict;
  /** The usage summed over every `response.done`, or null when none reported any. */
  tokens(): AuditTokens | null;
}

export function createRealtimeOutputWatcher(dlp: DlpSettings, tally: RealtimeDlpTally, eventId: () => string): RealtimeOutputWatcher {
  const scanner: StreamTextScanner | null = dlp.outputScan && dlp.rules.length > 0 ? createStreamTextScanner(dlp.rules) : null;
  let tokens: AuditTokens | null = null;
  return {
    inspect(text) {
      // Most provider events are audio deltas: parse only what can carry usage or scanned text.
      if (scanner === null && !text.includes('"response.done"')) return { action: 'forward' };
      const event = parseObject(text);
      if (event === null) return { action: 'forward' };
      if (event.type === 'response.done') tokens = addUsage(tokens, event.response);
      if (scanner === null || typeof event.type !== 'string' || !TEXT_DELTAS.has(event.type) || typeof event.delta !== 'string') return { action: 'forward' };
      for (const match of scanner.push(event.delta)) {
        const id = `output.${match.rule.detector.id}`;
        tally.counts[id] = (tally.counts[id] ?? 0) + 1;
        if (match.rule.action !== 'block') continue;
        tally.blockedEvents += 1;
        return { action: 'stop', ruleId: match.rule.detector.id, reply: blockedReply(match.rule.detector.id, null, eventId(), 'received') };
      }
      return { action: 'forward' };
    },
    tokens: () => tokens,
  };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** `response.usage`: {total_tokens, input_tokens, output_tokens}; an absent count stays absent. */
function addUsage(sum: AuditTokens | null, response: unknown): AuditTokens | null {
  const usage = (response as { usage?: Record<string, unknown> } | undefined)?.usage;
  if (typeof usage !== 'object' || usage === null) return sum;
  const next: AuditTokens = { ...sum };
  const add = (field: keyof AuditTokens, value: unknown) => {
    if (typeof value === 'number' && Number.isFinite(value)) next[field] = (next[field] ?? 0) + value;
  };
  add('input', usage.input_tokens);
  add('output', usage.output_tokens);
  add('total', usage.total_tokens);
  return next;
}
