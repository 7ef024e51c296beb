// Optional DLP over what the provider answers (dlp output_scan): streamed text
// deltas go through a bounded look-behind window, so a secret split across two
// events is still seen; a block ends the stream with the dialect's error event
// (what was already sent stays sent: README, "Decisions"). A JSON answer is
// scanned whole and replaced by the 403 on a block. Other actions are recorded.
import { scanRequestBody } from '../dlp/scan-request.js';
import { createStreamTextScanner } from '../dlp/scan-stream-text.js';
import { GatewayError } from '../errors.js';
import type { DialectCodec } from '../canonical/codec.js';
import { SseDecoder } from '../streaming/sse-decoder.js';
import type { Governed } from './govern-request.js';
import type { RequestTrace } from './request-trace.js';

/** Where stream events carry generated text, whatever the dialect (reasoning included: `reasoning_content` on OpenAI-compatible servers). */
const TEXT_KEYS = new Set(['content', 'text', 'delta', 'arguments', 'partial_json', 'thinking', 'refusal', 'reasoning_content', 'reasoning']);

function blockedError(ruleId: string): GatewayError {
  return new GatewayError('GW_ERR_DLP_BLOCKED', { message: `The response was stopped by DLP rule "${ruleId}"; the matched text is not shown.` });
}

function count(trace: RequestTrace, ruleId: string): void {
  trace.noteDlp(`output.${ruleId}`);
}

export function scanOutputStream(body: AsyncIterable<Uint8Array | string>, governed: Governed, codec: DialectCodec, trace: RequestTrace): AsyncIterable<Uint8Array | string> {
  if (!governed.dlp.outputScan || governed.dlp.rules.length === 0) return body;
  return scanStream(body, governed, codec, trace);
}

async function* scanStream(body: AsyncIterable<Uint8Array | string>, governed: Governed, codec: DialectCodec, trace: RequestTrace): AsyncGenerator<Uint8Array | string> {
  const scanner = createStreamTextScanner(governed.dlp.rules);
  const decoder = new SseDecoder();
  // Bytes are held only until their event is complete, so no event leaves unscanned.
  let pending = '';
  const utf8 = new TextDecoder();
  for await (const chunk of body) {
    const text = typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
    pending += text;
    const boundary = Math.max(pending.lastIndexOf('\n\n'), pending.lastIndexOf('\r\n\r\n'));
    if (boundary < 0) continue;
    const complete = pending.slice(0, boundary + 2);
    pending = pending.slice(boundary + 2);
    for (const event of decoder.push(Buffer.from(complete))) {
      for (const match of scanner.push(textOf(event.data))) {
        count(trace, match.rule.detector.id);
        if (match.rule.action !== 'block') continue;
        const error = blockedError(match.rule.detector.id);
        trace.noteOutcome(error.code);
        // Output is scanned only on SSE streams, whose codecs encode their stream errors as text.
        yield codec.encodeStreamError(error);
        return;
      }
    }
    yield complete;
  }
  if (pending) yield pending;
}

function textOf(data: string): string {
  if (!data.startsWith('{')) return '';
  try {
    const pieces: string[] = [];
    collect(JSON.parse(data), pieces, 0);
    return pieces.join('');
  } catch {
    return '';
  }
}

function collect(node: unknown, pieces: string[], depth: number): void {
  if (typeof node !== 'object' || node === null || depth > 32) return;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string' && TEXT_KEYS.has(key)) pieces.push(value);
    else collect(value, pieces, depth + 1);
  }
}

/**
 * A whole JSON answer: a block replaces it with the 403; other matches are counted. `answer`:
 * the bytes as the caller already parsed them (readJsonBody's), else they are parsed here.
 */
export function scanOutputJson(bytes: Buffer, governed: Governed, trace: RequestTrace, answer?: unknown): void {
  if (!governed.dlp.outputScan || governed.dlp.rules.length === 0) return;
  const parsed = answer ?? parseOrUndefined(bytes);
  if (parsed === undefined) return;
  const rules = governed.dlp.rules.map((rule) => ({ ...rule, action: rule.action === 'redact' ? 'log' as const : rule.action }));
  const scan = scanRequestBody(parsed, rules);
  for (const [ruleId, matches] of Object.entries(scan.counts)) for (let index = 0; index < matches; index += 1) count(trace, ruleId);
  if (scan.blockedBy !== null) throw blockedError(scan.blockedBy);
}

function parseOrUndefined(bytes: Buffer): unknown {
  try { return JSON.parse(bytes.toString('utf8')); } catch { return undefined; }
}
