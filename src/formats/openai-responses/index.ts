// The OpenAI Responses dialect (`POST /v1/responses`) as one DialectCodec.
// https://platform.openai.com/docs/api-reference/responses
import type { DialectCodec } from '../../canonical/codec.js';
import { decodeResponsesError } from './decode-error.js';
import { decodeResponsesRequest } from './decode-request.js';
import { decodeResponsesResponse } from './decode-response.js';
import { ResponsesStreamDecoder } from './decode-stream.js';
import { createResponsesOutputPartReader } from './read-output-parts.js';
import { encodeResponsesRequest } from './encode-request.js';
import { encodeResponsesResponse } from './encode-response.js';
import { ResponsesStreamEncoder } from './encode-stream.js';
import { encodeResponsesError } from './encode-error.js';
import { encodeResponsesStreamError } from './encode-stream-error.js';
import { isResponsesTerminalEvent } from './is-terminal-event.js';
import { createResponsesStreamUsageReader, readResponsesUsage } from './read-usage.js';

export const openAiResponsesCodec: DialectCodec = {
  name: 'openai-responses',
  decodeRequest: decodeResponsesRequest,
  encodeRequest: encodeResponsesRequest,
  decodeResponse: decodeResponsesResponse,
  encodeResponse: encodeResponsesResponse,
  createStreamDecoder: () => new ResponsesStreamDecoder(),
  createOutputPartReader: createResponsesOutputPartReader,
  createStreamEncoder: (options) => new ResponsesStreamEncoder(options),
  decodeError: decodeResponsesError,
  streamFraming: 'sse',
  encodeError: encodeResponsesError,
  encodeStreamError: encodeResponsesStreamError,
  readUsage: readResponsesUsage,
  createStreamUsageReader: createResponsesStreamUsageReader,
  isTerminalEvent: isResponsesTerminalEvent,
};
