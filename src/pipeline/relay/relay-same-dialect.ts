// Provider → client when both speak the same dialect: the provider's stream forwarded chunk by
// chunk as it arrives, usage read on the side. An upstream failure after the first byte becomes
// the client dialect's error event and the stream ends cleanly. (A JSON answer is read whole
// by read-json-reply.ts; a translated stream is relay-translated-stream.ts.)
import type { DialectCodec } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { GatewayError } from '../../errors.js';
import { codecForDialect } from '../../formats/codec-registry.js';
import type { WireDialect } from '../../canonical/dialect.js';
import { SseDecoder, type SseEvent } from '../../streaming/sse-decoder.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import { classifyUpstreamError } from '../../upstream/upstream-client.js';
import type { RelayedOutput } from '../relayed-output.js';
import { createUsageTap } from './usage-tap.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import { answerEndTest, drainAfterAnswer } from './drain-after-answer.js';
import type { DrainCancel } from '../drain-cancel.js';

/**
 * The client's codec: its in-stream error event (Responses' response.failed, not Chat's data line),
 * its terminal event and where its events carry usage. `dialect` is the older form, read as that
 * dialect's codec (Chat for 'openai'); it goes once every caller passes the codec.
 */
export type RelayCodecChoice = { codec: DialectCodec; dialect?: undefined } | { /** @deprecated pass `codec` */ dialect: WireDialect; codec?: undefined };

export type RelayOptions = RelayCodecChoice & {
  /** gw asked for usage the client did not (stream_options.include_usage): hide that extra chunk. */
  hideUsageChunk: boolean;
  signal: CancelSignal;
  /** Called once when the body is done, with what was learned on the side. */
  onDone(result: { usage: Usage | undefined; bytes: number; failure: GatewayError | null; afterHangUp: boolean }): void;
  /** Called once the stream's last event has been handed to the client (Codex hangs up right after it). */
  onFinished?(): void;
  /** Called when the provider's first body byte arrives (the stream first-byte histograms). */
  onFirstByte?(): void;
  /** Keeps what the client was handed (while budgets apply), for a stream cut before its usage. */
  relayed?: RelayedOutput;
  /** The upstream signal to hold open once the answer is complete, so a hang-up then still reads the usage. */
  drain?: DrainCancel | null;
};

function codecOf(choice: RelayCodecChoice): DialectCodec {
  return choice.codec ?? codecForDialect(choice.dialect);
}

/** OpenAI's usage-only chunk: `choices: []` with a usage object. */
function isUsageOnlyChunk(parsed: Record<string, unknown> | undefined): boolean {
  return Array.isArray(parsed?.choices) && parsed.choices.length === 0;
}

function endsOnEventBoundary(chunk: Uint8Array): boolean {
  const last = chunk[chunk.length - 1];
  const before = chunk[chunk.length - 2];
  return last === 0x0a && (before === 0x0a || (before === 0x0d && chunk[chunk.length - 3] === 0x0a));
}

export async function* relayStream(body: AsyncIterable<Uint8Array>, options: RelayOptions): AsyncGenerator<Uint8Array | string> {
  const codec = codecOf(options);
  const tap = createUsageTap(codec, options.relayed);
  const decoder = new SseDecoder();
  // Events handed on so far: a Responses error event continues their sequence_number.
  let eventsSent = 0;
  let tapping = true;
  let bytes = 0;
  let failure: GatewayError | null = null;
  // Whether everything received so far ended on an event boundary (the decoder holds no partial event).
  let aligned = true;
  const drain = options.drain ?? null;
  // Whether the answer's end has been seen (nothing to watch for without a drain).
  let answered = drain === null;
  const endsAnswer = answerEndTest(codec.name);
  const upstream = drainAfterAnswer(body, drain && { cancel: drain, read: (chunk: Uint8Array) => {
    for (const event of decoder.push(chunk)) tap.readEventData(event.data);
    return chunk.length;
  } });
  try {
    for await (const chunk of upstream) {
      if (bytes === 0) options.onFirstByte?.();
      let events: SseEvent[] = [];
      try {
        if (tapping) events = decoder.push(chunk);
      } catch (error) {
        if (options.hideUsageChunk) throw error;
        tapping = false; // an oversized line: stop reading on the side, keep forwarding
      }
      // One plain loop per chunk (no some/map callbacks, no array when nothing is filtered):
      // this runs for every chunk of every stream.
      let finished = false;
      for (const event of events) if (codec.isTerminalEvent(event)) { finished = true; break; }
      if (!answered) for (const event of events) if (endsAnswer(event)) { answered = true; drain?.holdOpen(); break; }
      eventsSent += events.length;
      if (finished) options.onFinished?.();
      let hidden = false;
      const parsed: Array<Record<string, unknown> | undefined> | null = options.hideUsageChunk ? [] : null;
      for (const event of events) {
        const data = tap.readEventData(event.data);
        if (parsed === null) continue;
        if (isUsageOnlyChunk(data)) hidden = true;
        parsed.push(data);
      }
      const wasAligned = aligned;
      aligned = endsOnEventBoundary(chunk);
      // The usual case: the provider's own bytes, untouched.
      if (!options.hideUsageChunk || (!hidden && wasAligned && aligned)) {
        bytes += chunk.length;
        yield chunk;
        continue;
      }
      // Filtering across event boundaries: re-emit the complete events but the hidden one.
      const text = events.filter((_event, index) => !isUsageOnlyChunk(parsed?.[index])).map((event) => encodeSseEvent(event)).join('');
      if (text) {
        bytes += Buffer.byteLength(text);
        yield text;
      }
    }
    // A last event with no blank line after it: tap it, and re-emit it when filtering.
    const tail = tapping ? decoder.end() : [];
    for (const event of tail) {
      const data = tap.readEventData(event.data);
      if (options.hideUsageChunk && !isUsageOnlyChunk(data)) {
        const text = encodeSseEvent(event);
        bytes += Buffer.byteLength(text);
        yield text;
      }
    }
  } catch (error) {
    // A client that left needs no error event; anything else gets one in its dialect.
    if (!options.signal.aborted) {
      failure = error instanceof GatewayError ? error : classifyUpstreamError(error);
      const event = codec.encodeStreamError(failure, { eventsSent });
      bytes += typeof event === 'string' ? Buffer.byteLength(event) : event.length;
      yield event;
    }
  } finally {
    options.onDone({ usage: tap.usage(), bytes, failure, afterHangUp: drain?.heldAtHangUp ?? false });
  }
}

/** undici's body can be read whole in one call; the mock's cannot. */
