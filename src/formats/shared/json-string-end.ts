// Where a JSON string ends in raw bytes: the next quote not escaped by an odd run of
// backslashes. The native search jumps over the string's bytes (most of a coding agent's
// request is strings); `"` and `\` are ASCII and never inside a UTF-8 sequence.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that ends the string opened at `open`, or -1 when it never ends. */
export function closingQuote(bytes: Buffer, open: number): number {
  let quote = open;
  for (;;) {
    quote = bytes.indexOf(QUOTE, quote + 1);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
}
