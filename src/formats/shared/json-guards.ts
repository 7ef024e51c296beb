// Boundary checks for untrusted request bodies, shared by the dialects that read fields one by one
// (google-genai, openai-responses): a wrong type is a 400 naming the exact field.
import { GatewayError } from '../../errors.js';
import { isPlainObject } from '../../is-plain-object.js';

export type JsonRecord = Record<string, unknown>;

export const isRecord: (value: unknown) => value is JsonRecord = isPlainObject;

export function invalid(param: string, expected: string): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message: `Invalid request: '${param}' must be ${expected}.`, param });
}

export function requireRecord(value: unknown, param: string): JsonRecord {
  if (!isRecord(value)) throw invalid(param, 'an object');
  return value;
}

export function optionalRecord(value: unknown, param: string): JsonRecord | undefined {
  return value === undefined || value === null ? undefined : requireRecord(value, param);
}

export function optionalArray(value: unknown, param: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(param, 'an array');
  return value;
}

export function optionalString(value: unknown, param: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(param, 'a string');
  return value;
}

export function optionalNumber(value: unknown, param: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(param, 'a number');
  return value;
}

export function optionalInteger(value: unknown, param: string): number | undefined {
  const number = optionalNumber(value, param);
  if (number !== undefined && !Number.isInteger(number)) throw invalid(param, 'an integer');
  return number;
}

export function optionalBoolean(value: unknown, param: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(param, 'a boolean');
  return value;
}

export function optionalStringArray(value: unknown, param: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid(param, 'an array of strings');
  return value;
}

/** JSON.parse that never throws: arguments produced by another model may be broken JSON. */
export function parseJsonObject(text: string): JsonRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
