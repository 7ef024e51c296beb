// Same-format forwarding sends the client's own bytes with only the model name
// patched. This scanner finds a top-level string field in raw JSON without
// re-serialising, and reports duplicate top-level keys (where raw bytes and the
// parsed object could disagree, so the caller must serialise what it parsed).
import { closingQuote } from './shared/json-string-end.js';

export interface TopLevelScan {
  /** Byte offsets [start, end) of the field's string value, quotes included, if present and a string. */
  valueSpan: [number, number] | null;
  duplicateKeys: boolean;
}

const QUOTE = 0x22;

/** End offset (exclusive) of the JSON string starting at `start` (a quote). */
function skipString(bytes: Buffer, start: number): number {
  const close = closingQuote(bytes, start);
  if (close < 0) throw new SyntaxError('unterminated string');
  return close + 1;
}

/** End offset of the JSON value starting at `start` (any type; nesting tracked, strings skipped). */
function skipValue(bytes: Buffer, start: number): number {
  let depth = 0;
  let index = start;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    if (byte === QUOTE) {
      index = skipString(bytes, index);
      if (depth === 0) return index;
      continue;
    }
    if (byte === 0x7b || byte === 0x5b) depth += 1;
    else if (byte === 0x7d || byte === 0x5d) {
      if (depth === 0) return index;
      depth -= 1;
      if (depth === 0) return index + 1;
    } else if (depth === 0 && (byte === 0x2c)) return index;
    index += 1;
  }
  return index;
}

function skipWhitespace(bytes: Uint8Array, index: number): number {
  while (index < bytes.length && (bytes[index] === 0x20 || bytes[index] === 0x0a || bytes[index] === 0x0d || bytes[index] === 0x09)) index += 1;
  return index;
}

/** Scans a JSON object's top level. Assumes the bytes already parsed as a JSON object. */
export function scanTopLevel(bytes: Buffer, field: string): TopLevelScan {
  const decoder = new TextDecoder();
  const seen = new Set<string>();
  let valueSpan: [number, number] | null = null;
  let duplicateKeys = false;
  let index = skipWhitespace(bytes, 0) + 1; // past '{'
  while (index < bytes.length) {
    index = skipWhitespace(bytes, index);
    if (bytes[index] === 0x2c) { index += 1; continue; }
    if (bytes[index] !== QUOTE) break; // '}' or end
    const keyEnd = skipString(bytes, index);
    const key = JSON.parse(decoder.decode(bytes.subarray(index, keyEnd))) as string;
    if (seen.has(key)) duplicateKeys = true;
    seen.add(key);
    index = skipWhitespace(bytes, keyEnd) + 1; // past ':'
    index = skipWhitespace(bytes, index);
    const valueEnd = skipValue(bytes, index);
    if (key === field) valueSpan = bytes[index] === QUOTE ? [index, valueEnd] : null;
    index = valueEnd;
  }
  return { valueSpan, duplicateKeys };
}

/** The raw body with one top-level string field replaced, or null when it cannot be patched in place. */
export function patchTopLevelString(raw: Buffer, field: string, value: string): Buffer | null {
  const scan = scanTopLevel(raw, field);
  if (scan.duplicateKeys || !scan.valueSpan) return null;
  const [start, end] = scan.valueSpan;
  return Buffer.concat([raw.subarray(0, start), Buffer.from(JSON.stringify(value)), raw.subarray(end)]);
}
