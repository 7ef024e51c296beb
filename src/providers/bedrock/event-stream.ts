// Reads Bedrock's binary AWS event stream (ConverseStream, InvokeModelWithResponseStream)
// into WireEvents for the bedrock-converse stream decoder. A frame is
// [total length u32][headers length u32][prelude CRC][headers][payload][message CRC]; network
// chunks split frames anywhere, so bytes are buffered until a whole frame is there, and
// @smithy/eventstream-codec checks both CRCs and parses the headers.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { WireEvent } from '../../canonical/codec.js';
import { GatewayError } from '../../errors.js';

/** Frames larger than this are refused rather than buffered (Bedrock's own are a few KB; AWS caps messages at 16 MB). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const PRELUDE_AND_CRC_BYTES = 16;

export async function* decodeBedrockEventStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent> {
  for await (const { event } of readBedrockFrames(body)) yield event;
}

/** Each whole frame as it arrived (its bytes, to relay unchanged) with its event (output DLP reads the text in it). */
export async function* readBedrockFrames(body: AsyncIterable<Uint8Array>): AsyncGenerator<{ frame: Uint8Array; event: WireEvent }> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let pending: Uint8Array = new Uint8Array(0);
  for await (const chunk of body) {
    pending = append(pending, chunk);
    let offset = 0;
    for (;;) {
      const length = frameLength(pending, offset);
      if (length === undefined || pending.length - offset < length) break;
      const frame = pending.subarray(offset, offset + length);
      yield { frame, event: toWireEvent(decodeFrame(codec, frame)) };
      offset += length;
    }
    pending = pending.slice(offset);
  }
  if (pending.length > 0) throw badStream(`the event stream ended inside a frame (${pending.length} bytes left)`);
}

function append(pending: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (pending.length === 0) return chunk;
  const joined = new Uint8Array(pending.length + chunk.length);
  joined.set(pending, 0);
  joined.set(chunk, pending.length);
  return joined;
}

function frameLength(bytes: Uint8Array, offset: number): number | undefined {
  if (bytes.length - offset < 4) return undefined;
  const length = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0, false);
  if (length < PRELUDE_AND_CRC_BYTES || length > MAX_FRAME_BYTES) throw badStream(`an event-stream frame claims ${length} bytes`);
  return length;
}

function decodeFrame(codec: EventStreamCodec, frame: Uint8Array): ReturnType<EventStreamCodec['decode']> {
  try {
    return codec.decode(frame);
  } catch (error) {
    throw badStream(`an event-stream frame is corrupt (${error instanceof Error ? error.message : String(error)})`);
  }
}

// :message-type "event" names the event in :event-type; "exception" names a modeled error
// in :exception-type; "error" carries :error-code and :error-message headers and no payload.
function toWireEvent(message: ReturnType<EventStreamCodec['decode']>): WireEvent {
  const header = (name: string): string | undefined => {
    const value = message.headers[name];
    return value?.type === 'string' ? value.value : undefined;
  };
  const data = toUtf8(message.body);
  const type = header(':message-type') ?? 'event';
  if (type === 'exception') return { event: header(':exception-type') ?? 'internalServerException', data };
  if (type === 'error') {
    return { event: header(':error-code') ?? 'error', data: JSON.stringify({ message: header(':error-message') ?? data }) };
  }
  return { event: header(':event-type') ?? 'unknown', data };
}

function badStream(message: string): GatewayError {
  return new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: `Bedrock sent a stream gw could not read: ${message}.` });
}
