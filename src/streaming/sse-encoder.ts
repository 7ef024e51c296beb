// SSE framing for what gw writes
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
// one `data:` line per line of the payload, so a payload with newlines survives.

export interface SseEventToEncode {
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

export interface SseEncodeOptions {
  /** Gemini writes "\r\n" (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent); others "\n". */
  lineEnding?: '\n' | '\r\n';
}

const LINE_BREAK = /\r\n|\r|\n/;

function assertSingleLine(field: string, value: string): void {
  // A line break inside event/id would let the value forge extra fields.
  if (LINE_BREAK.test(value)) throw new RangeError(`SSE ${field} must not contain a line break`);
}

/** Encodes one event, ending with the blank line that dispatches it. */
export function encodeSseEvent(event: SseEventToEncode, options: SseEncodeOptions = {}): string {
  const end = options.lineEnding ?? '\n';
  let text = '';
  if (event.event !== undefined) {
    assertSingleLine('event', event.event);
    text += `event: ${event.event}${end}`;
  }
  if (event.id !== undefined) {
    assertSingleLine('id', event.id);
    text += `id: ${event.id}${end}`;
  }
  if (event.retry !== undefined) text += `retry: ${Math.max(0, Math.floor(event.retry))}${end}`;
  for (const line of event.data.split(LINE_BREAK)) text += `data: ${line}${end}`;
  return text + end;
}

/** A comment line, used as a keep-alive that every SSE client ignores. */
export function encodeSseComment(comment = '', options: SseEncodeOptions = {}): string {
  const end = options.lineEnding ?? '\n';
  return comment.split(LINE_BREAK).map((line) => `:${line === '' ? '' : ` ${line}`}${end}`).join('') + end;
}

/** The same event as UTF-8 bytes, for writers that want a Buffer. */
export function encodeSseEventBytes(event: SseEventToEncode, options: SseEncodeOptions = {}): Uint8Array {
  return new TextEncoder().encode(encodeSseEvent(event, options));
}
