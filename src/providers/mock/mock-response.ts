// The mock answers as an HTTP response so the pipeline treats it like any
// upstream: a status, headers and a body that arrives chunk by chunk.

import { encodeSseEvent, type SseEncodeOptions, type SseEventToEncode } from '../../streaming/sse-encoder.js';

export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

export interface MockStreamTiming {
  /** Pause before every event after the first; 0 means none. */
  delayMs: number;
  sleep: (ms: number) => Promise<void>;
}

const encoder = new TextEncoder();

async function* yieldOnce(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

export function respondWithJson(status: number, body: unknown, headers: Record<string, string> = {}): MockResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: yieldOnce(encoder.encode(JSON.stringify(body))),
  };
}

async function* yieldEvents(
  events: SseEventToEncode[],
  timing: MockStreamTiming,
  options: SseEncodeOptions,
): AsyncGenerator<Uint8Array> {
  for (const [index, event] of events.entries()) {
    if (index > 0 && timing.delayMs > 0) await timing.sleep(timing.delayMs);
    yield encoder.encode(encodeSseEvent(event, options));
  }
}

/** One SSE event per body chunk, so a consumer sees them arrive one by one. */
export function respondWithSse(
  events: SseEventToEncode[],
  timing: MockStreamTiming,
  options: SseEncodeOptions = {},
): MockResponse {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    body: yieldEvents(events, timing, options),
  };
}

/** A JSON payload as an SSE event, optionally named (Anthropic names every event). */
export function toSseEvent(payload: unknown, event?: string): SseEventToEncode {
  const data = JSON.stringify(payload);
  return event === undefined ? { data } : { event, data };
}

/** What every dialect's mock needs: the request and the injected clock, ids and timing. */
export interface MockContext {
  model: string;
  body: unknown;
  stream: boolean;
  /** Milliseconds since the epoch. */
  now: () => number;
  createId: () => string;
  timing: MockStreamTiming;
}
