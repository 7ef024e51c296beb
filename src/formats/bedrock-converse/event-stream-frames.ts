// The AWS event-stream binary framing a ConverseStream client reads: each message is
// [total length][headers length][prelude CRC][headers][payload][message CRC], with string
// headers `:event-type` (the event name), `:content-type` and `:message-type`.
// https://docs.aws.amazon.com/transcribe/latest/dg/streaming-setting-up.html#streaming-event-stream
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
// Pure: @smithy/eventstream-codec only packs bytes and computes CRC32s.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One event (`messageStart`, `contentBlockDelta`…) with a JSON payload. */
export function encodeEventFrame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** A modeled stream exception (`throttlingException`…): the AWS SDKs throw it by that name. */
export function encodeExceptionFrame(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

export function concatFrames(frames: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((sum, frame) => sum + frame.byteLength, 0));
  let offset = 0;
  for (const frame of frames) {
    out.set(frame, offset);
    offset += frame.byteLength;
  }
  return out;
}

/** Bytes as a string of one char per byte (latin1): lossless, but must be written back as latin1, never UTF-8. */
export function bytesToBinaryString(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 8192) text += String.fromCharCode(...bytes.subarray(start, start + 8192));
  return text;
}
