// The Anthropic Messages dialect: https://docs.anthropic.com/en/api/messages
import type { DialectCodec } from '../../canonical/codec.js';
import { decodeAnthropicError } from './decode-error.js';
import { decodeAnthropicRequest } from './decode-request.js';
import { decodeAnthropicResponse } from './decode-response.js';
import { createAnthropicStreamDecoder } from './decode-stream.js';
import { createAnthropicOutputPartReader } from './read-output-parts.js';
import { encodeAnthropicRequest } from './encode-request.js';
import { encodeAnthropicResponse } from './encode-response.js';
import { createAnthropicStreamEncoder } from './encode-stream.js';
import { encodeAnthropicError } from './encode-error.js';
import { encodeAnthropicStreamError } from './encode-stream-error.js';
import { isAnthropicTerminalEvent } from './is-terminal-event.js';
import { createAnthropicStreamUsageReader, readAnthropicUsage } from './read-usage.js';

export const anthropicMessagesCodec: DialectCodec = {
  name: 'anthropic-messages',
  decodeRequest: decodeAnthropicRequest,
  encodeRequest: encodeAnthropicRequest,
  decodeResponse: decodeAnthropicResponse,
  encodeResponse: encodeAnthropicResponse,
  createStreamDecoder: createAnthropicStreamDecoder,
  createOutputPartReader: createAnthropicOutputPartReader,
  createStreamEncoder: createAnthropicStreamEncoder,
  decodeError: decodeAnthropicError,
  streamFraming: 'sse',
  encodeError: encodeAnthropicError,
  encodeStreamError: encodeAnthropicStreamError,
  readUsage: readAnthropicUsage,
  createStreamUsageReader: createAnthropicStreamUsageReader,
  isTerminalEvent: isAnthropicTerminalEvent,
};
