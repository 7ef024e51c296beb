// Whether raw JSON bytes hold more object keys than the parsed object: a
// duplicate key (folded by the parser, last wins) means the bytes say something
// the scan did not see, and a first-wins provider would read it. Inside a JSON
// string every `"` is escaped, so an unescaped `"` followed by `:` always ends a
// key: counting those counts the keys, without a second parse.

const KEY_END = /"[ \t\r\n]*:/g;

export function countRawKeys(raw: Buffer): number {
  // latin1 keeps one character per byte; `"`, `\` and `:` are ASCII and never part of a UTF-8 sequence.
  const text = raw.toString('latin1');
  let count = 0;
  KEY_END.lastIndex = 0;
  for (let match = KEY_END.exec(text); match !== null; match = KEY_END.exec(text)) {
    let backslashes = 0;
    for (let index = match.index - 1; index >= 0 && text.charCodeAt(index) === 0x5c; index -= 1) backslashes += 1;
    if (backslashes % 2 === 0) count += 1;
  }
  return count;
}
