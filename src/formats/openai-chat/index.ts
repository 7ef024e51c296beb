// The OpenAI Chat Completions dialect: https://platform.openai.com/docs/api-reference/chat
import type { DialectCodec } from '../../canonical/codec.js';
import { decodeOpenAiChatError } from './decode-error.js';
import { decodeOpenAiChatRequest } from './decode-request.js';
import { decodeOpenAiChatResponse } from './decode-response.js';
import { createOpenAiChatStreamDecoder } from './decode-stream.js';
import { createOpenAiChatOutputPartReader } from './read-output-parts.js';
import { encodeOpenAiChatRequest } from './encode-request.js';
import { encodeOpenAiChatResponse } from './encode-response.js';
import { createOpenAiChatStreamEncoder, type OpenAiChatStreamEncoderOptions } from './encode-stream.js';
import { encodeOpenAiError } from './encode-error.js';
import { encodeOpenAiStreamError } from './encode-stream-error.js';
import { isOpenAiChatTerminalEvent } from './is-terminal-event.js';
import { createOpenAiChatStreamUsageReader, readOpenAiChatUsage } from './read-usage.js';

export const openAiChatCodec = {
  name: 'openai-chat',
  decodeRequest: decodeOpenAiChatRequest,
  encodeRequest: encodeOpenAiChatRequest,
  decodeResponse: decodeOpenAiChatResponse,
  encodeResponse: encodeOpenAiChatResponse,
  createStreamDecoder: createOpenAiChatStreamDecoder,
  createOutputPartReader: createOpenAiChatOutputPartReader,
  /** Also takes `includeUsage` (the client's stream_options.include_usage, kept in extensions.openai). */
  createStreamEncoder: (options: OpenAiChatStreamEncoderOptions) => createOpenAiChatStreamEncoder(options),
  decodeError: decodeOpenAiChatError,
  streamFraming: 'sse',
  encodeError: encodeOpenAiError,
  encodeStreamError: encodeOpenAiStreamError,
  readUsage: readOpenAiChatUsage,
  createStreamUsageReader: createOpenAiChatStreamUsageReader,
  isTerminalEvent: isOpenAiChatTerminalEvent,
} satisfies DialectCodec;
