// The streaming folder's public surface.
export { LineDecoder, DEFAULT_MAX_LINE_LENGTH, type LineDecoderOptions } from './line-decoder.js';
export { SseDecoder, decodeSseStream, DEFAULT_MAX_EVENT_SIZE, type SseEvent, type SseDecoderOptions } from './sse-decoder.js';
export { SseDecodeError, type SseDecodeErrorCode } from './sse-decode-error.js';
export { encodeSseEvent, encodeSseComment, encodeSseEventBytes, type SseEventToEncode, type SseEncodeOptions } from './sse-encoder.js';
