// The hash chain, pure (no fs, no clock). hash = hex SHA-256 of
// prev + "\n" + JCS(record without hash), JCS per RFC 8785 via `canonicalize`.
// The stored line is the JCS form of the whole record, hash included, so the
// bytes on disk equal the canonical bytes and a record still verifies after
// it has been parsed and re-serialised elsewhere (a SIEM, jq).
import { hash as digest } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { GENESIS_PREV, type AuditFields, type AuditRecord, type AuditValue } from './record.js';

type Canonicalize = (input: unknown) => string | undefined;
// canonicalize is CommonJS with an ESM-style `export default` in its typings:
// Node hands us the function itself, TypeScript (NodeNext) thinks it is under `.default`.
const loaded: unknown = canonicalizeModule;
const canonicalize: Canonicalize = typeof loaded === 'function'
  ? (loaded as Canonicalize)
  : (loaded as { default: Canonicalize }).default;

export { GENESIS_PREV };

/** A record before sealing: everything but `hash`. */
export type UnsealedRecord = Omit<AuditRecord, 'hash'>;

export interface SealedRecord {
  record: AuditRecord;
  /** The JCS form of `record`, without the trailing "\n". */
  line: string;
}

/** A value that would make the canonical form fragile: a float, a lone surrogate, a Date, a function. */
export class AuditRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditRecordError';
  }
}

type JsonObject = { [key: string]: AuditValue };

declare global {
  interface String {
    /** ES2024; in Node since 20. */
    isWellFormed(): boolean;
  }
}

function cleanString(value: string, where: string): string {
  // A lone surrogate is not I-JSON (RFC 7493 §2.1), and JCS implementations disagree on it.
  // isWellFormed is native: several times cheaper than a look-around regex on every string of every record.
  if (!value.isWellFormed()) throw new AuditRecordError(`${where}: string holds a lone surrogate`);
  return value;
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Keys a JS object lists first, in numeric order, whatever their insertion order: JSON.stringify would not sort them as JCS does. */
const INDEX_LIKE_KEY = /^(?:0|[1-9][0-9]*)$/;

/** Set while cleaning when some key is index-like, so the record takes the general (slower) canonical path. */
interface CleanContext {
  indexLikeKeys: boolean;
}

/**
 * A deep copy with `undefined` properties removed and every object's keys inserted in
 * JCS order (UTF-16 code units, which is what sort() compares), so that JSON.stringify of
 * the copy is its JCS form. Floats and unsafe integers throw: ECMAScript number
 * formatting is the part of JCS most likely to differ between implementations, so
 * the trail keeps integers only.
 */
function cleanValue(value: unknown, where: string, context: CleanContext): AuditValue | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return cleanString(value, where);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new AuditRecordError(`${where}: ${value} is not a safe integer`);
    return value === 0 ? 0 : value; // -0 and 0 share one canonical form; keep the object equal to its parse
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => {
      const cleaned = cleanValue(item, `${where}[${index}]`, context);
      if (cleaned === undefined) throw new AuditRecordError(`${where}[${index}]: undefined in an array`);
      return cleaned;
    });
  }
  if (typeof value === 'object' && isPlainObject(value)) return cleanObject(value as Record<string, unknown>, where, context);
  throw new AuditRecordError(`${where}: ${typeof value} values are not allowed in audit records`);
}

/** `extra`'s members win over `value`'s of the same name, as `{ ...value, ...extra }` would, without that copy. */
function cleanObject(value: Record<string, unknown>, where: string, context: CleanContext, skipKey?: string, extra?: Record<string, unknown>): JsonObject {
  const result: JsonObject = {};
  const keys = Object.keys(value);
  if (extra) for (const key of Object.keys(extra)) if (!Object.hasOwn(value, key)) keys.push(key);
  for (const key of keys.sort()) {
    if (key === skipKey) continue;
    const item = extra && Object.hasOwn(extra, key) ? extra[key] : value[key];
    cleanString(key, where);
    if (INDEX_LIKE_KEY.test(key)) context.indexLikeKeys = true;
    const cleaned = cleanValue(item, where ? `${where}.${key}` : key, context);
    if (cleaned !== undefined) result[key] = cleaned;
  }
  return result;
}

/** For strings, integers, booleans and null, JCS is JSON.stringify (canonicalize itself does this); only nested values need sorting. */
function canonicalValue(value: AuditValue | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return canonicalize(value) ?? 'null';
  return JSON.stringify(value);
}

interface CanonicalBody {
  /** JCS of the record without hash. */
  text: string;
  /** Where the hash member belongs: the offset of the "," or "}" it goes before, or 1 when it sorts first. */
  hashAt: number;
}

/** JCS of the top-level object member by member, noting where "hash" sorts: the general path. */
function canonicalBodySlow(record: JsonObject): CanonicalBody {
  let text = '{';
  let hashAt = -1;
  for (const key of Object.keys(record).sort()) {
    if (hashAt === -1 && key > 'hash') hashAt = text.length;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalValue(record[key])}`;
  }
  return { text: `${text}}`, hashAt: hashAt === -1 ? text.length : hashAt };
}

/**
 * The usual path: the cleaned copy already has its keys in JCS order, so two native
 * JSON.stringify calls (the members before "hash" and those after) give the JCS text and
 * where the hash goes. Serialising member by member in JS was most of the seal's cost.
 */
function canonicalBody(record: JsonObject, context: CleanContext): CanonicalBody {
  if (context.indexLikeKeys) return canonicalBodySlow(record);
  const before: JsonObject = {};
  const after: JsonObject = {};
  for (const key of Object.keys(record)) {
    if (key < 'hash') before[key] = record[key]!;
    else after[key] = record[key]!;
  }
  const head = JSON.stringify(before).slice(1, -1);
  const tail = JSON.stringify(after).slice(1, -1);
  const text = `{${head}${head && tail ? ',' : ''}${tail}}`;
  return { text, hashAt: 1 + head.length };
}

function sha256Hex(text: string): string {
  // crypto.hash is the one-shot form: no Hash object per record, measurably faster for short inputs.
  return digest('sha256', text, 'hex');
}

function withoutHash(record: object, context: CleanContext): JsonObject {
  return cleanObject(record as Record<string, unknown>, '', context, 'hash');
}

/** hex SHA-256 of `prev + "\n" + JCS(record without hash)`; a `hash` field in the input is ignored. */
export function hashRecord(prev: string, recordWithoutHash: object): string {
  const context: CleanContext = { indexLikeKeys: false };
  const clean = withoutHash(recordWithoutHash, context);
  return sha256Hex(`${prev}\n${canonicalBody(clean, context).text}`);
}

/**
 * Computes the hash over the record's own `prev` and builds the stored line.
 * The top-level object is serialised once and the hash member spliced in at
 * its sorted place, so each append canonicalises each value only once.
 */
export function sealRecord(unsealed: UnsealedRecord): SealedRecord {
  return sealMerged(unsealed, undefined);
}

/** The writer's seal: the caller's fields with the chain's own members (v, seq, ts, prev) on top, merged while cleaning. */
export function sealAppended(fields: AuditFields, chain: Pick<UnsealedRecord, 'v' | 'seq' | 'ts' | 'prev'>): SealedRecord {
  return sealMerged(fields, chain);
}

function sealMerged(unsealed: object, chain: Pick<UnsealedRecord, 'v' | 'seq' | 'ts' | 'prev'> | undefined): SealedRecord {
  const prev = chain ? chain.prev : (unsealed as UnsealedRecord).prev;
  const { clean, text, hashAt } = canonicalTop(unsealed as Record<string, unknown>, chain) ?? canonicalGeneral(unsealed, chain);
  const hash = sha256Hex(`${prev}\n${text}`);
  const member = `"hash":"${hash}"`;
  const line = hashAt === 1
    ? `{${member}${text.length > 2 ? ',' : ''}${text.slice(1)}`
    : `${text.slice(0, hashAt)},${member}${text.slice(hashAt)}`;
  clean.hash = hash; // clean is our own fresh copy
  return { record: clean as unknown as AuditRecord, line };
}

function canonicalGeneral(unsealed: object, chain: object | undefined): CanonicalBody & { clean: JsonObject } {
  const context: CleanContext = { indexLikeKeys: false };
  const clean = cleanObject(unsealed as Record<string, unknown>, '', context, 'hash', chain as Record<string, unknown> | undefined);
  return { clean, ...canonicalBody(clean, context) };
}

/** One record shape's top-level keys (the caller's and the chain's), in JCS order, and which come from the chain. */
interface Shape {
  keys: string[];
  fromChain: boolean[];
}

/** Records of one kind share their key list: sorting and checking it is done once per shape, not once per record. */
const shapes = new Map<string, Shape | null>();
const SHAPE_LIMIT = 256;
const CHAIN_KEYS = ['v', 'seq', 'ts', 'prev'];

/** The shape found last: records mostly repeat one shape, so most lookups compare keys instead of joining and hashing them. */
let lastShape: { own: string[]; chained: boolean; shape: Shape | null } | undefined;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** null when a key is index-like (JS would list it first, whatever JCS says): the general path handles those. */
function shapeOf(value: Record<string, unknown>, chain: object | undefined): Shape | null {
  const own = Object.keys(value);
  if (lastShape !== undefined && lastShape.chained === (chain !== undefined) && sameKeys(lastShape.own, own)) return lastShape.shape;
  const id = chain ? `${own.join('\u0000')}\u0001` : own.join('\u0000');
  let known = shapes.get(id);
  if (known === undefined) known = describeShape(own, chain, id);
  lastShape = { own, chained: chain !== undefined, shape: known };
  return known;
}

function describeShape(own: readonly string[], chain: object | undefined, id: string): Shape | null {
  const names = new Set(own);
  names.delete('hash');
  if (chain) for (const key of CHAIN_KEYS) names.add(key);
  const keys = [...names].sort();
  const shape = keys.some((key) => INDEX_LIKE_KEY.test(key))
    ? null
    : { keys: keys.map((key) => cleanString(key, '')), fromChain: keys.map((key) => chain !== undefined && CHAIN_KEYS.includes(key)) };
  if (shapes.size >= SHAPE_LIMIT) shapes.clear();
  shapes.set(id, shape);
  return shape;
}

/**
 * The usual path: the cleaned copy is built in the shape's cached key order (no sort per record)
 * and split at where "hash" sorts, so two native JSON.stringify calls give the JCS text and the
 * hash's place. Concatenating member by member in JS, as before, cost several times more: V8's
 * stringify of an object whose keys are already in order is the fast part.
 */
function canonicalTop(value: Record<string, unknown>, chain: object | undefined): (CanonicalBody & { clean: JsonObject }) | null {
  const shape = shapeOf(value, chain);
  if (shape === null) return null;
  const before: JsonObject = {};
  const after: JsonObject = {};
  const context: CleanContext = { indexLikeKeys: false };
  for (let index = 0; index < shape.keys.length; index += 1) {
    const key = shape.keys[index]!;
    const item = shape.fromChain[index] ? (chain as Record<string, unknown>)[key] : value[key];
    if (item === undefined) continue;
    const cleaned = typeof item === 'string' ? cleanString(item, key) : cleanValue(item, key, context);
    if (cleaned === undefined) continue;
    if (key < 'hash') before[key] = cleaned;
    else after[key] = cleaned;
  }
  // A nested object with an index-like key: JSON.stringify would list it first, so JCS member by member.
  if (context.indexLikeKeys) return null;
  const head = JSON.stringify(before).slice(1, -1);
  const tail = JSON.stringify(after).slice(1, -1);
  const clean: JsonObject = Object.assign(before, after);
  return { clean, text: `{${head}${head && tail ? ',' : ''}${tail}}`, hashAt: 1 + head.length };
}
