// Provider stream → canonical parts → the client's stream, event by event as they
// arrive. Usage is read from the parts; an upstream failure after the first byte
// becomes the client dialect's error event and the stream closes. With output DLP on,
// the parts pass the hold (scan-output.ts) before the client's encoder: a block ends
// the stream with gw's error event before any character of the secret was encoded.
import { isBinaryStreamEncoder, type CodecContext, type DialectCodec, type StreamEncoder, type WireEvent } from '../../canonical/codec.js';
import type { CanonicalError, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { GatewayError } from '../../errors.js';
import { SseDecoder } from '../../streaming/sse-decoder.js';
import { classifyUpstreamError } from '../../upstream/upstream-client.js';
import { decodeBedrockEventStream } from '../../providers/bedrock/event-stream.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import type { OutputPartHold } from './scan-output.js';
import type { RelayedOutput } from '../relayed-output.js';
import { answerEndTest, drainAfterAnswer } from './drain-after-answer.js';
import type { DrainCancel } from '../drain-cancel.js';

export interface TranslatedRelayOptions {
  providerCodec: DialectCodec;
  clientCodec: DialectCodec;
  /** Whether the provider's stream is AWS event-stream frames; by default, as its codec's streamFraming says. */
  model: string;
  context: CodecContext;
  signal: CancelSignal;
  onDone(result: { usage: Usage | undefined; bytes: number; failure: GatewayError | null; afterHangUp: boolean }): void;
  /** Called once the client's stream has been closed properly (its final events handed over). */
  onFinished?(): void;
  /** Called when the provider's first body byte arrives (the stream first-byte histograms). */
  onFirstByte?(): void;
  /** Output DLP's hold, when the call's team scans output; null or absent: parts go straight to the encoder. */
  hold?: OutputPartHold | null;
  /** Keeps the text relayed (while budgets apply), for a stream cut before its usage. */
  relayed?: RelayedOutput;
  /** The upstream signal held open once the provider's answer is complete (drain-after-answer.ts). */
  drain?: DrainCancel | null;
}

async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent> {
  const decoder = new SseDecoder();
  for await (const chunk of body) yield* decoder.push(chunk);
  yield* decoder.end();
}

export async function* relayTranslatedStream(body: AsyncIterable<Uint8Array>, options: TranslatedRelayOptions): AsyncGenerator<string | Uint8Array> {
  const decoder = options.providerCodec.createStreamDecoder();
  const encoder = asByteEncoder(options.clientCodec.createStreamEncoder({ model: options.model, context: options.context }));
  let usage: Usage | undefined;
  let bytes = 0;
  let failure: GatewayError | null = null;
  const hold = options.hold ?? null;
  // Set when output DLP stopped the stream: what was held is dropped, gw's error event ends it.
  let blocked: GatewayError | null = null;
  const encode = (part: StreamPart, out: Buffer[]) => {
    if (part.type === 'usage' || part.type === 'finish') usage = part.usage;
    options.relayed?.addPart(part);
    out.push(encoder.push(part));
  };
  const emit = (parts: StreamPart[]): Buffer => {
    const out: Buffer[] = [];
    for (const part of parts) {
      if (hold === null) { encode(part, out); continue; }
      const step = hold.push(part);
      for (const released of step.release) encode(released, out);
      if (step.blocked !== null) { blocked = step.blocked; encode({ type: 'error', error: toCanonicalError(blocked) }, out); break; }
    }
    return Buffer.concat(out);
  };
  // The provider's stream ended (cleanly or not): what is held was scanned whole and goes out.
  const flushHold = (): Buffer => {
    const out: Buffer[] = [];
    for (const part of hold?.end() ?? []) encode(part, out);
    return Buffer.concat(out);
  };
  const emitFailure = (error: GatewayError): Buffer => {
    const out = [flushHold()];
    encode({ type: 'error', error: toCanonicalError(error) }, out);
    return Buffer.concat(out);
  };
  try {
    const binary = options.providerCodec.streamFraming === 'aws-event-stream';
    // A hang-up once the provider's answer is complete reads on for its usage, relaying nothing.
    const drain = options.drain ?? null;
    let answered = drain === null;
    const endsAnswer = answerEndTest(options.providerCodec.name);
    const events = drainAfterAnswer(binary ? decodeBedrockEventStream(body) : sseEvents(body), drain && { cancel: drain, read: (event: WireEvent) => {
      for (const part of decoder.push(event)) if ((part.type === 'usage' || part.type === 'finish') && part.usage) usage = part.usage;
      return event.data.length;
    } });
    let first = true;
    for await (const event of events) {
      if (first) { first = false; options.onFirstByte?.(); }
      if (!answered && endsAnswer(event)) { answered = true; drain?.holdOpen(); }
      const out = emit(decoder.push(event));
      if (out.length > 0) { bytes += out.length; yield out; }
      // The hold noted the block on the trace; the provider's stream is dropped here.
      if (blocked !== null) return;
    }
    const ending = emit(decoder.end());
    if (blocked !== null) {
      if (ending.length > 0) { bytes += ending.length; yield ending; }
      return;
    }
    const tail = Buffer.concat([ending, flushHold(), encoder.end()]);
    options.onFinished?.();
    if (tail.length > 0) { bytes += tail.length; yield tail; }
  } catch (error) {
    if (!options.signal.aborted) {
      failure = error instanceof GatewayError ? error : classifyUpstreamError(error);
      const out = emitFailure(failure);
      if (out.length > 0) { bytes += out.length; yield out; }
    }
  } finally {
    options.onDone({ usage, bytes, failure, afterHangUp: options.drain?.heldAtHangUp ?? false });
  }
}

function toCanonicalError(error: GatewayError): CanonicalError {
  return { status: error.status, kind: error.kind, message: error.message };
}

/** SSE encoders give text; a binary one (Bedrock's event-stream frames) gives bytes. Either way, bytes out. */
function asByteEncoder(encoder: StreamEncoder): { push(part: StreamPart): Buffer; end(): Buffer } {
  if (isBinaryStreamEncoder(encoder)) {
    return { push: (part) => Buffer.from(encoder.pushBytes(part)), end: () => Buffer.from(encoder.endBytes()) };
  }
  return { push: (part) => Buffer.from(encoder.push(part), 'utf8'), end: () => Buffer.from(encoder.end(), 'utf8') };
}
