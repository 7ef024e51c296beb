// The AWS Bedrock Converse dialect (Converse and ConverseStream) as one DialectCodec.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
//
// Binary streams (streamFraming 'aws-event-stream'): createStreamEncoder returns a
// BinaryStreamEncoder (pushBytes/endBytes, src/canonical/codec.ts); check it with
// isBinaryStreamEncoder and write the bytes as they are.
//
// InvokeModel (/invoke, /invoke-with-response-stream) is not this codec: its body is the
// model vendor's own format (Anthropic Messages plus anthropic_version "bedrock-2023-05-31"
// for anthropic.* models), so it belongs to that vendor's codec.
import type { DialectCodec } from '../../canonical/codec.js';
import { decodeBedrockError } from './decode-error.js';
import { decodeBedrockRequest } from './decode-request.js';
import { decodeBedrockResponse } from './decode-response.js';
import { createBedrockStreamDecoder } from './decode-stream.js';
import { createBedrockOutputPartReader } from './read-output-parts.js';
import { encodeBedrockRequest } from './encode-request.js';
import { encodeBedrockResponse } from './encode-response.js';
import { createBedrockStreamEncoder } from './encode-stream.js';
import { encodeBedrockError } from './encode-error.js';
import { encodeBedrockStreamError } from './encode-stream-error.js';
import { isBedrockTerminalEvent } from './is-terminal-event.js';
import { createBedrockStreamUsageReader, readBedrockUsage } from './read-usage.js';

export const bedrockConverseCodec: DialectCodec = {
  name: 'bedrock-converse',
  decodeRequest: decodeBedrockRequest,
  encodeRequest: encodeBedrockRequest,
  decodeResponse: decodeBedrockResponse,
  encodeResponse: encodeBedrockResponse,
  createStreamDecoder: createBedrockStreamDecoder,
  createOutputPartReader: createBedrockOutputPartReader,
  createStreamEncoder: createBedrockStreamEncoder,
  decodeError: (status, body) => decodeBedrockError(status, body),
  streamFraming: 'aws-event-stream',
  encodeError: encodeBedrockError,
  encodeStreamError: encodeBedrockStreamError,
  readUsage: readBedrockUsage,
  createStreamUsageReader: createBedrockStreamUsageReader,
  isTerminalEvent: isBedrockTerminalEvent,
};

export { decodeBedrockError } from './decode-error.js';
export { encodeBedrockError } from './encode-error.js';
export { encodeBedrockStreamError } from './encode-stream-error.js';
export { isBinaryStreamEncoder } from './encode-stream.js';
