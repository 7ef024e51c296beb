// Second layer of SSE decoding: lines → events, following the WHATWG
// "interpret an event stream" rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation)
// with openai-node's one deviation: an event that ends at end of stream without
// a blank line is still dispatched, because providers close right after it.
// Used beside a pass-through stream: push() never alters or holds back bytes.

import { DEFAULT_MAX_LINE_LENGTH, LineDecoder } from './line-decoder.js';
import { SseDecodeError } from './sse-decode-error.js';

export interface SseEvent {
  /** The `event:` field; undefined when the event had none (the spec's default type "message"). */
  event?: string;
  /** The `data:` lines joined by "\n". */
  data: string;
  id?: string;
  /** Reconnection time in milliseconds from a `retry:` line made only of digits. */
  retry?: number;
}

export interface SseDecoderOptions {
  maxLineLength?: number;
  /** Largest `data` (in UTF-16 code units) of one event before failing. */
  maxEventSize?: number;
}

const DEFAULT_MAX_EVENT_SIZE = 16 * 1024 * 1024;

interface PendingEvent {
  event?: string;
  dataLines: string[];
  dataSize: number;
  id?: string;
  retry?: number;
}

function createPendingEvent(): PendingEvent {
  return { dataLines: [], dataSize: 0 };
}

/** Incremental SSE decoder: feed it chunks as they arrive, get whole events back. */
export class SseDecoder {
  private readonly lineDecoder: LineDecoder;
  private readonly maxEventSize: number;
  private pending: PendingEvent = createPendingEvent();

  constructor(options: SseDecoderOptions = {}) {
    this.lineDecoder = new LineDecoder({ maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH });
    this.maxEventSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  }

  push(chunk: Uint8Array): SseEvent[] {
    return this.readLines(this.lineDecoder.push(chunk));
  }

  /** Call once at end of stream: flushes a last line and a last event without a blank line. */
  end(): SseEvent[] {
    const events = this.readLines(this.lineDecoder.end());
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private readLines(lines: string[]): SseEvent[] {
    const events: SseEvent[] = [];
    for (const line of lines) {
      if (line === '') {
        const event = this.dispatch();
        if (event) events.push(event);
      } else {
        this.readField(line);
      }
    }
    return events;
  }

  private readField(line: string): void {
    if (line.startsWith(':')) return; // a comment, often a keep-alive
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.applyField(name, value);
  }

  private applyField(name: string, value: string): void {
    const pending = this.pending;
    switch (name) {
      case 'data':
        pending.dataSize += value.length + 1;
        if (pending.dataSize > this.maxEventSize) {
          this.pending = createPendingEvent();
          throw new SseDecodeError('GW_SSE_EVENT_TOO_LARGE', `An SSE event is larger than ${this.maxEventSize} characters.`);
        }
        pending.dataLines.push(value);
        break;
      case 'event':
        pending.event = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) pending.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) pending.retry = Number(value);
        break;
      default:
        break; // unknown fields are ignored by the spec
    }
  }

  private dispatch(): SseEvent | undefined {
    const pending = this.pending;
    this.pending = createPendingEvent();
    // Like openai-node, an event with a name but no data (e.g. a bare "event: ping") still counts.
    if (pending.dataLines.length === 0 && pending.event === undefined) return undefined;
    const event: SseEvent = { data: pending.dataLines.join('\n') };
    if (pending.event !== undefined) event.event = pending.event;
    if (pending.id !== undefined) event.id = pending.id;
    if (pending.retry !== undefined) event.retry = pending.retry;
    return event;
  }
}

/** Decodes a whole byte stream; events are yielded as soon as their blank line arrives. */
export async function* decodeSseStream(
  source: AsyncIterable<Uint8Array>,
  options: SseDecoderOptions = {},
): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder(options);
  for await (const chunk of source) {
    yield* decoder.push(chunk);
  }
  yield* decoder.end();
}
