// The OpenAI legacy Completions dialect (/v1/completions) as one DialectCodec.
// https://platform.openai.com/docs/api-reference/completions
import type { DialectCodec } from '../../canonical/codec.js';
import { decodeCompletionsError } from './decode-error.js';
import { decodeCompletionsRequest } from './decode-request.js';
import { decodeCompletionsResponse } from './decode-response.js';
import { createCompletionsStreamDecoder } from './decode-stream.js';
import { createCompletionsOutputPartReader } from './read-output-parts.js';
import { encodeCompletionsRequest } from './encode-request.js';
import { encodeCompletionsResponse } from './encode-response.js';
import { createCompletionsStreamEncoder } from './encode-stream.js';
import { encodeCompletionsError } from './encode-error.js';
import { encodeCompletionsStreamError } from './encode-stream-error.js';
import { isCompletionsTerminalEvent } from './is-terminal-event.js';
import { createCompletionsStreamUsageReader, readCompletionsUsage } from './read-usage.js';

export const openAiCompletionsCodec: DialectCodec = {
  name: 'openai-completions',
  decodeRequest: decodeCompletionsRequest,
  encodeRequest: encodeCompletionsRequest,
  decodeResponse: decodeCompletionsResponse,
  encodeResponse: encodeCompletionsResponse,
  createStreamDecoder: createCompletionsStreamDecoder,
  createOutputPartReader: createCompletionsOutputPartReader,
  createStreamEncoder: createCompletionsStreamEncoder,
  decodeError: decodeCompletionsError,
  streamFraming: 'sse',
  encodeError: encodeCompletionsError,
  encodeStreamError: encodeCompletionsStreamError,
  readUsage: readCompletionsUsage,
  createStreamUsageReader: createCompletionsStreamUsageReader,
  isTerminalEvent: isCompletionsTerminalEvent,
};

export { encodeCompletionsError } from './encode-error.js';
export { encodeCompletionsStreamError } from './encode-stream-error.js';
