// First layer of SSE decoding: bytes → text lines, as openai-node's
// LineDecoder does. Line ends are "\r\n", "\n" or a lone "\r"
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream).

import { SseDecodeError } from './sse-decode-error.js';

export interface LineDecoderOptions {
  /** Longest line (in UTF-16 code units) kept in memory before failing. */
  maxLineLength?: number;
}

export const DEFAULT_MAX_LINE_LENGTH = 4 * 1024 * 1024;

/** Splits a byte stream into lines; keeps partial lines and partial UTF-8 characters between pushes. */
export class LineDecoder {
  // stream: true keeps a multi-byte character split across chunks until its last byte
  // arrives; the default ignoreBOM=false drops a leading BOM as the SSE spec requires.
  private readonly textDecoder = new TextDecoder('utf-8');
  private readonly maxLineLength: number;
  private buffer = '';
  // A "\r" ended the previous chunk: a "\n" opening the next one belongs to it.
  private skipLeadingLineFeed = false;

  constructor(options: LineDecoderOptions = {}) {
    this.maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  }

  push(chunk: Uint8Array): string[] {
    return this.splitText(this.textDecoder.decode(chunk, { stream: true }));
  }

  /** Flushes what is left; a last line without a line end still counts. */
  end(): string[] {
    const lines = this.splitText(this.textDecoder.decode());
    if (this.buffer.length > 0) lines.push(this.buffer);
    this.buffer = '';
    this.skipLeadingLineFeed = false;
    return lines;
  }

  private splitText(text: string): string[] {
    let incoming = text;
    if (this.skipLeadingLineFeed && incoming.length > 0) {
      if (incoming.startsWith('\n')) incoming = incoming.slice(1);
      this.skipLeadingLineFeed = false;
    }
    this.buffer += incoming;
    const lines: string[] = [];
    let start = 0;
    for (let index = 0; index < this.buffer.length; index += 1) {
      const character = this.buffer[index];
      if (character !== '\n' && character !== '\r') continue;
      if (index - start > this.maxLineLength) this.failLineTooLong();
      lines.push(this.buffer.slice(start, index));
      if (character === '\r') {
        if (index + 1 === this.buffer.length) this.skipLeadingLineFeed = true;
        else if (this.buffer[index + 1] === '\n') index += 1;
      }
      start = index + 1;
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > this.maxLineLength) this.failLineTooLong();
    return lines;
  }

  private failLineTooLong(): never {
    throw new SseDecodeError('GW_SSE_LINE_TOO_LONG', `An SSE line is longer than ${this.maxLineLength} characters.`);
  }
}
