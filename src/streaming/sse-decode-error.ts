// The streaming layer imports nothing from src/, so its one error carries its
// own code; the pipeline maps it onto the catalog (upstream stream malformed).

export type SseDecodeErrorCode = 'GW_SSE_LINE_TOO_LONG' | 'GW_SSE_EVENT_TOO_LARGE';

export class SseDecodeError extends Error {
  readonly code: SseDecodeErrorCode;

  constructor(code: SseDecodeErrorCode, message: string) {
    super(message);
    this.name = 'SseDecodeError';
    this.code = code;
  }
}
