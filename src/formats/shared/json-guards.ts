// The one set of boundary checks for untrusted request bodies, shared by every dialect: a wrong
// or missing field is GW_ERR_REQUEST_INVALID naming the exact field (its JSON path in the
// dialect's own spelling), worded the way OpenAI words its own 400s, so every client reads
// "Invalid value for 'x': expected …" or "Missing required parameter: 'x'." whatever its dialect.
import { GatewayError } from '../../errors.js';
import { isPlainObject } from '../../is-plain-object.js';

export { isPlainObject };
export type JsonRecord = Record<string, unknown>;

/** A field that is present but wrong: `expected` says what would be right ("a string", "one of a, b"). */
export function invalid(param: string, expected: string): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message: `Invalid value for '${param}': expected ${expected}.`, param });
}

/** A required field that is absent. */
export function missing(param: string): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message: `Missing required parameter: '${param}'.`, param });
}

export function requireRecord(value: unknown, param: string): JsonRecord {
  if (value === undefined) throw missing(param);
  if (!isPlainObject(value)) throw invalid(param, 'an object');
  return value;
}

export function optionalRecord(value: unknown, param: string): JsonRecord | undefined {
  return value === undefined || value === null ? undefined : requireRecord(value, param);
}

export function requireArray(value: unknown, param: string): unknown[] {
  if (value === undefined) throw missing(param);
  if (!Array.isArray(value)) throw invalid(param, 'an array');
  return value;
}

export function optionalArray(value: unknown, param: string): unknown[] {
  return value === undefined || value === null ? [] : requireArray(value, param);
}

export function requireString(value: unknown, param: string): string {
  if (value === undefined || value === null) throw missing(param);
  if (typeof value !== 'string') throw invalid(param, 'a string');
  return value;
}

export function optionalString(value: unknown, param: string): string | undefined {
  return value === undefined || value === null ? undefined : requireString(value, param);
}

export function optionalNumber(value: unknown, param: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(param, 'a number');
  return value;
}

/** `minimum` 1 reads "a positive integer", 0 "a non-negative integer". */
export function optionalInteger(value: unknown, param: string, minimum = Number.NEGATIVE_INFINITY): number | undefined {
  const number = optionalNumber(value, param);
  if (number === undefined || (Number.isInteger(number) && number >= minimum)) return number;
  throw invalid(param, minimum === 1 ? 'a positive integer' : minimum === 0 ? 'a non-negative integer' : 'an integer');
}

export function optionalBoolean(value: unknown, param: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(param, 'a boolean');
  return value;
}

export function optionalStringArray(value: unknown, param: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid(param, 'an array of strings');
  value.forEach((item, index) => { if (typeof item !== 'string') throw invalid(`${param}[${index}]`, 'a string'); });
  return value as string[];
}

/** A field that takes one string or a list of them (`stop`, `stopSequences`). */
export function optionalStringOrArray(value: unknown, param: string): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (value === undefined || value === null || Array.isArray(value)) return optionalStringArray(value, param);
  throw invalid(param, 'a string or an array of strings');
}

/** JSON.parse that never throws: arguments produced by another model may be broken JSON. */
export function parseJsonObject(text: string): JsonRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `data:image/png;base64,AAAA` → its parts; undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)?((?:;[^;,]+)*?);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? 'application/octet-stream', data: match[3] ?? '' };
}
