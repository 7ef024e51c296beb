// JSON bytes to a value, with exactly JSON.parse's result and errors, at about half its cost
// on a coding agent's request. Decoding a 200 KB body into one string costs more than
// parsing it: the string lands in V8's large-object space (a two-byte one when a single
// character is not Latin-1), and that allocation alone measured 400 µs on Node 20, more
// than a bare proxy's whole cost per request. So the long string values (source files,
// tool results, system prompts) are cut out of the bytes and parsed one by one, each small
// enough for the young generation; what is left, the skeleton of keys, short values and
// structure, is parsed whole with a numbered placeholder where each long value was, and the
// values are put back. Keys always stay in the skeleton, so the prototype-poisoning check
// reads every key. test/pipeline/parse-json-bytes.test.ts compares it with JSON.parse on
// generated and broken bodies.
//
// The same pass measures nesting: V8's JSON.parse copes with deep nesting, but what walks the
// parsed value afterwards (DLP, the codecs) recurses, and a 100,000-deep array would overflow
// the stack there: a 500. Refused before parsing, it is the client's own 400.
import secureJson from 'secure-json-parse';
import { closingQuote } from '../../formats/shared/json-string-end.js';
import { decodeLiteral } from './decoded-literals.js';

/** Deepest JSON nesting gw accepts; real requests (tool schemas included) stay far below. */
export const MAX_JSON_DEPTH = 512;

/** String values longer than this (in bytes, quotes included) are parsed apart from the skeleton. */
const LONG_VALUE_BYTES = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

export interface JsonLayout {
  /** `[`/`{` outside strings nest deeper than the limit somewhere. */
  tooDeep: boolean;
  /** [open quote, closing quote] of each string value longer than LONG_VALUE_BYTES, in order. */
  longValues: Array<[number, number]>;
  /** A string the skeleton keeps begins with the escape `\u0000`, as a placeholder does: the skeleton could not tell them apart. */
  placeholderLookalike: boolean;
}

/**
 * One pass over the bytes: nesting depth, and where the long string values are. Strings are
 * jumped over with the native search (they are most of the bytes). `"`, `\` and the brackets
 * are ASCII and never inside a UTF-8 sequence.
 */
export function readJsonLayout(bytes: Buffer, depthLimit = MAX_JSON_DEPTH): JsonLayout {
  const layout: JsonLayout = { tooDeep: false, longValues: [], placeholderLookalike: false };
  let depth = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) {
      const close = closingQuote(bytes, index);
      if (close < 0) return layout;
      if (close - index + 1 > LONG_VALUE_BYTES && !isKey(bytes, close)) layout.longValues.push([index, close]);
      else if (startsWithNulEscape(bytes, index + 1)) layout.placeholderLookalike = true;
      index = close;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > depthLimit) {
        layout.tooDeep = true;
        return layout;
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return layout;
}

/**
 * The value JSON.parse(bytes as UTF-8) gives, refusing __proto__ and constructor.prototype keys
 * (prototype poisoning) as secure-json-parse does; on invalid JSON, JSON.parse's own error.
 */
export function parseJsonBytes(bytes: Buffer, layout: JsonLayout): unknown {
  if (layout.longValues.length === 0 || layout.placeholderLookalike) return parseText(bytes.toString('utf8'));
  try {
    return parseInPieces(bytes, layout.longValues);
  } catch {
    // Invalid somewhere: the whole parse throws the error (and byte position) a client should see.
    return parseText(bytes.toString('utf8'));
  }
}

function parseInPieces(bytes: Buffer, longValues: ReadonlyArray<[number, number]>): unknown {
  const skeleton: string[] = [];
  const values: string[] = [];
  let mayPoison = false;
  let from = 0;
  const keep = (end: number) => {
    const piece = bytes.toString('utf8', from, end);
    // Tested piece by piece: the placeholders themselves are `\u` escapes. An escape or a name
    // never spans two pieces, which are cut outside strings.
    mayPoison ||= MAY_POISON.test(piece);
    skeleton.push(piece);
  };
  for (const [open, close] of longValues) {
    keep(open);
    skeleton.push(`"\\u0000${values.length}"`);
    // JSON.parse of the literal alone checks and unescapes it exactly as the whole parse would
    // (or it is one decoded before, from the same bytes).
    values.push(decodeLiteral(bytes, open, close + 1));
    from = close + 1;
  }
  keep(bytes.length);
  const text = skeleton.join('');
  const root = mayPoison ? parseSafely(text) : JSON.parse(text) as unknown;
  // The whole body may be one long string.
  if (typeof root === 'string') return values[Number(root.slice(1))];
  putBack(root, values);
  return root;
}

/** Replaces each placeholder string in the tree by its value (an explicit stack: no depth limit here). */
function putBack(root: unknown, values: readonly string[]): void {
  if (typeof root !== 'object' || root === null) return;
  const stack: object[] = [root];
  const visit = (node: Record<string | number, unknown>, key: string | number): void => {
    const value = node[key];
    if (typeof value === 'string') {
      if (value.charCodeAt(0) === 0) node[key] = values[Number(value.slice(1))];
    } else if (typeof value === 'object' && value !== null) stack.push(value);
  };
  while (stack.length > 0) {
    const node = stack.pop() as Record<string | number, unknown>;
    if (Array.isArray(node)) for (let index = 0; index < node.length; index++) visit(node, index);
    else for (const key of Object.keys(node)) visit(node, key);
  }
}

/**
 * JSON.parse, or secure-json-parse when the text could spell a poisoning key. Its check runs two
 * regular expressions over the whole text; a text with no `\u` escape can only spell those names
 * literally, and when none of the three appears the plain parse is exactly as safe.
 */
const MAY_POISON = /\\u|__proto__|constructor/;

function parseText(text: string): unknown {
  return MAY_POISON.test(text) ? parseSafely(text) : JSON.parse(text) as unknown;
}

function parseSafely(text: string): unknown {
  return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
}

/** A string followed (after whitespace) by `:` is an object key. */
function isKey(bytes: Buffer, close: number): boolean {
  let index = close + 1;
  while (bytes[index] === 0x20 || bytes[index] === 0x0a || bytes[index] === 0x0d || bytes[index] === 0x09) index++;
  return bytes[index] === COLON;
}

/** `\u0000` at this offset (the placeholder's spelling; hex digits are 0 in either case). */
function startsWithNulEscape(bytes: Buffer, at: number): boolean {
  return bytes[at] === BACKSLASH && bytes[at + 1] === 0x75 && bytes[at + 2] === 0x30 && bytes[at + 3] === 0x30 && bytes[at + 4] === 0x30 && bytes[at + 5] === 0x30;
}
