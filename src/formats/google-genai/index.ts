// The Google GenAI (Gemini API generateContent) dialect as one DialectCodec.
// https://ai.google.dev/api/generate-content
import type { CodecContext, DialectCodec } from '../../canonical/codec.js';
import { decodeGoogleError } from './decode-error.js';
import { decodeGoogleRequest } from './decode-request.js';
import { decodeGoogleResponse } from './decode-response.js';
import { GoogleStreamDecoder } from './decode-stream.js';
import { createGoogleOutputPartReader } from './read-output-parts.js';
import { encodeGoogleRequest } from './encode-request.js';
import { encodeGoogleResponse } from './encode-response.js';
import { GoogleStreamEncoder } from './encode-stream.js';
import { encodeGoogleError } from './encode-error.js';
import { encodeGoogleStreamError } from './encode-stream-error.js';
import { isGoogleTerminalEvent } from './is-terminal-event.js';
import { createGoogleStreamUsageReader, readGoogleUsage } from './read-usage.js';

export const googleGenAiCodec: DialectCodec = {
  name: 'google-genai',
  decodeRequest: decodeGoogleRequest,
  encodeRequest: encodeGoogleRequest,
  decodeResponse: decodeGoogleResponse,
  encodeResponse: encodeGoogleResponse,
  // Gemini sends function calls without ids on older models; a context, when given, mints them.
  createStreamDecoder: (context?: CodecContext) => new GoogleStreamDecoder(context),
  createOutputPartReader: createGoogleOutputPartReader,
  createStreamEncoder: (options) => new GoogleStreamEncoder(options),
  decodeError: decodeGoogleError,
  streamFraming: 'sse',
  encodeError: encodeGoogleError,
  encodeStreamError: encodeGoogleStreamError,
  readUsage: readGoogleUsage,
  createStreamUsageReader: createGoogleStreamUsageReader,
  isTerminalEvent: isGoogleTerminalEvent,
};
