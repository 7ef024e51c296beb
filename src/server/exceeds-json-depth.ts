// V8's JSON.parse copes with deep nesting, but what walks the parsed value afterwards
// (secure-json-parse's prototype scan, DLP, the codecs) recurses, and a 100,000-deep
// array overflows the stack there: a 500. A byte scan before parsing is cheap (one
// pass, no allocation) and turns that into the client's own 400.

/** Deepest JSON nesting gw accepts; real requests (tool schemas included) stay far below. */
export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Whether `[`/`{` outside strings nest deeper than `limit` anywhere in the bytes (valid JSON or not). */
export function exceedsJsonDepth(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let depth = 0;
  for (let index = 0; index < buffer.length; index++) {
    const byte = buffer[index];
    if (byte === QUOTE) {
      // Strings are most of a coding agent's request: jump to their end with the native search.
      index = closingQuote(buffer, index);
      if (index < 0) return false;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that ends the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(buffer: Buffer, open: number): number {
  let quote = open;
  for (;;) {
    quote = buffer.indexOf(QUOTE, quote + 1);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (buffer[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
}
