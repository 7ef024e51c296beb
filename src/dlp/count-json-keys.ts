// Whether raw JSON bytes hold more object keys than the parsed object: a
// duplicate key (folded by the parser, last wins) means the bytes say something
// the scan did not see, and a first-wins provider would read it. Inside a JSON
// string every `"` is escaped, so an unescaped `"` followed by `:` always ends a
// key: counting those counts the keys, without a second parse.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

function isJsonSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

export function countRawKeys(raw: Buffer): number {
  // Every `:` is found with the native search (no copy of the body into a string); a key ends
  // there when the `:` follows an unescaped `"` (and whitespace). `"`, `\` and `:` are ASCII and
  // never part of a UTF-8 sequence.
  let count = 0;
  for (let colon = raw.indexOf(COLON); colon !== -1; colon = raw.indexOf(COLON, colon + 1)) {
    let index = colon - 1;
    while (isJsonSpace(raw[index])) index -= 1;
    if (raw[index] !== QUOTE) continue;
    let backslashes = 0;
    while (raw[index - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) count += 1;
  }
  return count;
}
