// The hash chain, pure (no fs, no clock). hash = hex SHA-256 of
// prev + "\n" + JCS(record without hash), JCS per RFC 8785 via `canonicalize`.
// The stored line is the JCS form of the whole record, hash included, so the
// bytes on disk equal the canonical bytes and a record still verifies after
// it has been parsed and re-serialised elsewhere (a SIEM, jq).
import { hash as digest } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { GENESIS_PREV, type AuditRecord, type AuditValue } from './record.js';

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

// A lone surrogate is not I-JSON (RFC 7493 §2.1), and JCS implementations disagree on it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function cleanString(value: string, where: string): string {
  if (LONE_SURROGATE.test(value)) throw new AuditRecordError(`${where}: string holds a lone surrogate`);
  return value;
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A deep copy with `undefined` properties removed. Floats and unsafe integers
 * throw: ECMAScript number formatting is the part of JCS most likely to
 * differ between implementations, so the trail keeps integers only.
 */
function cleanValue(value: unknown, where: string): AuditValue | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return cleanString(value, where);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new AuditRecordError(`${where}: ${value} is not a safe integer`);
    return value === 0 ? 0 : value; // -0 and 0 share one canonical form; keep the object equal to its parse
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => {
      const cleaned = cleanValue(item, `${where}[${index}]`);
      if (cleaned === undefined) throw new AuditRecordError(`${where}[${index}]: undefined in an array`);
      return cleaned;
    });
  }
  if (typeof value === 'object' && isPlainObject(value)) return cleanObject(value as Record<string, unknown>, where);
  throw new AuditRecordError(`${where}: ${typeof value} values are not allowed in audit records`);
}

function cleanObject(value: Record<string, unknown>, where: string, skipKey?: string): JsonObject {
  const result: JsonObject = {};
  for (const key of Object.keys(value)) {
    if (key === skipKey) continue;
    const item = value[key];
    cleanString(key, where);
    const cleaned = cleanValue(item, where ? `${where}.${key}` : key);
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

/** JCS of the top-level object (keys in UTF-16 code-unit order, which is what sort() compares), noting where "hash" sorts. */
function canonicalBody(record: JsonObject): CanonicalBody {
  let text = '{';
  let hashAt = -1;
  for (const key of Object.keys(record).sort()) {
    if (hashAt === -1 && key > 'hash') hashAt = text.length;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalValue(record[key])}`;
  }
  return { text: `${text}}`, hashAt: hashAt === -1 ? text.length : hashAt };
}

function sha256Hex(text: string): string {
  // crypto.hash is the one-shot form: no Hash object per record, measurably faster for short inputs.
  return digest('sha256', text, 'hex');
}

function withoutHash(record: object): JsonObject {
  return cleanObject(record as Record<string, unknown>, '', 'hash');
}

/** hex SHA-256 of `prev + "\n" + JCS(record without hash)`; a `hash` field in the input is ignored. */
export function hashRecord(prev: string, recordWithoutHash: object): string {
  return sha256Hex(`${prev}\n${canonicalBody(withoutHash(recordWithoutHash)).text}`);
}

/**
 * Computes the hash over the record's own `prev` and builds the stored line.
 * The top-level object is serialised once and the hash member spliced in at
 * its sorted place, so each append canonicalises each value only once.
 */
export function sealRecord(unsealed: UnsealedRecord): SealedRecord {
  const clean = withoutHash(unsealed);
  const { text, hashAt } = canonicalBody(clean);
  const hash = sha256Hex(`${unsealed.prev}\n${text}`);
  const member = `"hash":"${hash}"`;
  const line = hashAt === 1
    ? `{${member}${text.length > 2 ? ',' : ''}${text.slice(1)}`
    : `${text.slice(0, hashAt)},${member}${text.slice(hashAt)}`;
  clean.hash = hash; // clean is our own fresh copy
  return { record: clean as unknown as AuditRecord, line };
}
