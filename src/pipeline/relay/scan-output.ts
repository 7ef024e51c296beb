// Optional DLP over what the provider answers (dlp output_scan). Streams are read as
// canonical parts, per choice and per block or tool call (src/dlp/scan-output-parts.ts),
// and held back: an event or part leaves only once enough text has followed it in its
// own part stream that a secret starting in it would have been seen whole, so a block
// ends the stream with the dialect's error event before any character of the secret
// reached the client, however the provider split or interleaved it. The same-format relay
// holds raw SSE events (read by the codec's createOutputPartReader, relayed byte for
// byte); the translated relay holds canonical parts before the client's encoder sees them
// (createOutputPartHold). A JSON answer is scanned whole and replaced by the 403 on a
// block. Other actions are recorded.
import { scanRequestBody } from '../../dlp/scan-request.js';
import { createJsonTextReader, decodeJsonStrings } from '../../dlp/read-json-text.js';
import { createOutputPartScan } from '../../dlp/scan-output-parts.js';
import type { HoldStep } from '../../dlp/scan-stream-text.js';
import { GatewayError } from '../../errors.js';
import type { DialectCodec, OutputPart, OutputPartReader, WireEvent } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { StreamPart } from '../../canonical/response.js';
import { readBedrockFrames } from '../../providers/bedrock/event-stream.js';
import { SseDecoder } from '../../streaming/sse-decoder.js';
import type { Governed } from '../govern/govern-request.js';
import type { RequestTrace } from '../request-trace.js';

export function blockedError(ruleId: string): GatewayError {
  return new GatewayError('GW_ERR_DLP_BLOCKED', { message: `The response was stopped by DLP rule "${ruleId}"; the matched text is not shown.` });
}

export function countOutputMatch(trace: RequestTrace, ruleId: string): void {
  trace.noteDlp(`output.${ruleId}`);
}

export function outputScanOn(governed: Governed): boolean {
  return governed.dlp.outputScan && governed.dlp.rules.length > 0;
}

/** Counts a hold step's matches; a block is noted as the call's outcome and returned as gw's error. */
function settleStep<T>(step: HoldStep<T>, trace: RequestTrace): GatewayError | null {
  for (const match of step.matches) countOutputMatch(trace, match.rule.detector.id);
  if (step.blocked === null) return null;
  const error = blockedError(step.blocked.rule.detector.id);
  trace.noteOutcome(error.code);
  return error;
}

/** `reader`: how the events are read; by default the codec's parts (a resource stream that is no answer: createEveryStringReader). */
export function scanOutputStream(body: AsyncIterable<Uint8Array | string>, governed: Governed, codec: DialectCodec, trace: RequestTrace, reader?: () => OutputPartReader): AsyncIterable<Uint8Array | string> {
  if (!outputScanOn(governed)) return body;
  return scanStream(body, governed, codec, trace, reader?.() ?? codec.createOutputPartReader());
}

/**
 * A stream that is not a model's answer in any dialect (a streamed transcription, image or
 * speech on the resource routes): every string value is read, each field of each event type its
 * own part stream, so a transcript's deltas join into one text and an id never splits it.
 */
export function createEveryStringReader(): OutputPartReader {
  const streams = new Map<string, number>();
  return {
    push(event) {
      let payload: unknown;
      try { payload = JSON.parse(event.data); } catch { payload = event.data; }
      const type = typeof payload === 'object' && payload !== null && 'type' in payload ? String(payload.type) : event.event ?? '';
      const parts: OutputPart[] = [];
      const add = (path: string, text: string) => {
        const key = `${type}|${path}`;
        let index = streams.get(key);
        if (index === undefined) { index = streams.size; streams.set(key, index); }
        parts.push({ choice: 0, part: { type: 'text-delta', index, delta: text } });
      };
      collectStrings(payload, '', add, 0);
      return parts;
    },
    end: () => [],
  };
}

function collectStrings(node: unknown, path: string, add: (path: string, text: string) => void, depth: number): void {
  if (typeof node === 'string') add(path, node);
  else if (typeof node === 'object' && node !== null && depth <= 32) for (const [key, value] of Object.entries(node)) collectStrings(value, Array.isArray(node) ? `${path}[]` : `${path}.${key}`, add, depth + 1);
}

/** The end of the first whole event in `text` (after its blank line), or -1. */
function eventEnd(text: string): number {
  const match = /\r\n\r\n|\n\n|\r\r/.exec(text);
  return match === null ? -1 : match.index + match[0].length;
}

async function* scanStream(body: AsyncIterable<Uint8Array | string>, governed: Governed, codec: DialectCodec, trace: RequestTrace, reader: OutputPartReader): AsyncGenerator<Uint8Array | string> {
  const hold = createOutputPartScan<string>(governed.dlp.rules);
  const decoder = new SseDecoder();
  const utf8 = new TextDecoder();
  // Bytes of an event not yet complete: no event leaves unscanned.
  let pending = '';
  for await (const chunk of body) {
    pending += typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
    let out = '';
    for (let end = eventEnd(pending); end >= 0; end = eventEnd(pending)) {
      const raw = pending.slice(0, end);
      pending = pending.slice(end);
      const step = hold.push(raw, readParts(reader, decoder.push(Buffer.from(raw))));
      out += step.release.join('');
      const error = settleStep(step, trace);
      if (error !== null) {
        // Output is scanned only on SSE streams, whose codecs encode their stream errors as text.
        yield out + String(codec.encodeStreamError(error));
        return;
      }
    }
    if (out) yield out;
  }
  // A last event without its blank line: scanned as the others were.
  pending += utf8.decode();
  const step = hold.push(pending, [...readParts(reader, [...decoder.push(Buffer.from(pending)), ...decoder.end()]), ...reader.end()]);
  const error = settleStep(step, trace);
  const rest = step.release.join('') + (error === null ? hold.end().join('') : String(codec.encodeStreamError(error)));
  if (rest) yield rest;
}

/**
 * A same-format AWS event stream (a Bedrock client of a Bedrock provider): whole frames are
 * held as SSE events are, their bytes relayed unchanged; a block ends with the codec's exception frame.
 */
export function scanOutputFrames(body: AsyncIterable<Uint8Array>, governed: Governed, codec: DialectCodec, trace: RequestTrace): AsyncIterable<Uint8Array> {
  if (!outputScanOn(governed)) return body;
  return scanFrames(body, governed, codec, trace);
}

async function* scanFrames(body: AsyncIterable<Uint8Array>, governed: Governed, codec: DialectCodec, trace: RequestTrace): AsyncGenerator<Uint8Array> {
  const hold = createOutputPartScan<Uint8Array>(governed.dlp.rules);
  const reader = codec.createOutputPartReader();
  for await (const { frame, event } of readBedrockFrames(body)) {
    const step = hold.push(frame, reader.push(event));
    const error = settleStep(step, trace);
    if (error !== null) {
      const failure = codec.encodeStreamError(error);
      yield Buffer.concat([...step.release, typeof failure === 'string' ? Buffer.from(failure) : failure]);
      return;
    }
    if (step.release.length > 0) yield Buffer.concat(step.release);
  }
  const rest = hold.end();
  if (rest.length > 0) yield Buffer.concat(rest);
}

function readParts(reader: OutputPartReader, events: Iterable<WireEvent>): OutputPart[] {
  const parts: OutputPart[] = [];
  for (const event of events) parts.push(...reader.push(event));
  return parts;
}

/** The translated relay's hold over canonical parts, before the client's encoder writes them. */
export interface OutputPartHold {
  /** The parts now safe to encode; `blocked` is gw's error when a block rule matched (the stream then ends). */
  push(part: StreamPart): { release: StreamPart[]; blocked: GatewayError | null };
  end(): StreamPart[];
}

export function createOutputPartHold(governed: Governed, trace: RequestTrace): OutputPartHold | null {
  if (!outputScanOn(governed)) return null;
  const hold = createOutputPartScan<StreamPart>(governed.dlp.rules);
  return {
    push(part) {
      // A translated stream is one answer: its decoder reads the provider's first choice only.
      const step = hold.push(part, [{ choice: 0, part }]);
      return { release: step.release, blocked: settleStep(step, trace) };
    },
    end: () => hold.end(),
  };
}

/**
 * A whole JSON answer: a block replaces it with the 403; other matches are counted. `answer`:
 * the bytes as the caller already parsed them (readJsonBody's), else they are parsed here.
 */
export function scanOutputJson(bytes: Buffer, governed: Governed, trace: RequestTrace, answer?: unknown): void {
  if (!outputScanOn(governed)) return;
  const parsed = answer ?? parseOrUndefined(bytes);
  // Arguments held as JSON text are read decoded, escapes undone, as the client will read them.
  if (parsed !== undefined) scanOutputValue(decodeJsonStrings(parsed), governed, trace);
}

/**
 * A translated JSON answer, scanned on the canonical parts the client's encoder wrote it from
 * (as a translated stream is, part by part): the encoded bytes are never parsed again. The
 * parts' texts are one run (src/dlp/walk-strings.ts), so a secret split across two parts is
 * still found on their joint, as in the encoded body's content array.
 */
export function scanOutputAnswer(content: readonly AssistantPart[], governed: Governed, trace: RequestTrace): void {
  if (!outputScanOn(governed)) return;
  const texts: string[] = [];
  for (const part of content) {
    if (part.type === 'tool-call') texts.push(part.name, createJsonTextReader().push(part.arguments));
    else if (part.text !== '') texts.push(part.text);
  }
  scanOutputValue(texts, governed, trace);
}

function scanOutputValue(value: unknown, governed: Governed, trace: RequestTrace): void {
  const rules = governed.dlp.rules.map((rule) => ({ ...rule, action: rule.action === 'redact' ? 'log' as const : rule.action }));
  const scan = scanRequestBody(value, rules);
  for (const [ruleId, matches] of Object.entries(scan.counts)) for (let index = 0; index < matches; index += 1) countOutputMatch(trace, ruleId);
  if (scan.blockedBy !== null) throw blockedError(scan.blockedBy);
}

function parseOrUndefined(bytes: Buffer): unknown {
  try { return JSON.parse(bytes.toString('utf8')); } catch { return undefined; }
}
