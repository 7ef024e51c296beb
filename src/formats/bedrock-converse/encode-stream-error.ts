// After the first byte the status is sent, so a gw error travels as a stream exception frame.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors
import type { GatewayError } from '../../errors.js';
import { encodeExceptionFrame } from './event-stream-frames.js';
import { streamExceptionName } from './encode-stream.js';

export function encodeBedrockStreamError(error: GatewayError): Uint8Array {
  return encodeExceptionFrame(streamExceptionName(error.kind), error.message);
}
