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
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (inString) {
      if (byte === BACKSLASH) index++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
