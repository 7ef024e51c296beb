// Boundary checks for untrusted completions bodies: each throws GW_ERR_REQUEST_INVALID
// naming the field, so the client learns exactly what to fix.
import { GatewayError } from '../../errors.js';
import { isPlainObject } from '../../is-plain-object.js';

export type JsonObject = Record<string, unknown>;

export const isObject: (value: unknown) => value is JsonObject = isPlainObject;

export function invalid(param: string, expected: string): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message: `Invalid '${param}': expected ${expected}.`, param });
}

export function optionalNumber(body: JsonObject, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(key, 'a number');
  return value;
}

export function optionalInteger(body: JsonObject, key: string): number | undefined {
  const value = optionalNumber(body, key);
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw invalid(key, 'a non-negative integer');
  return value;
}

export function optionalString(body: JsonObject, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(key, 'a string');
  return value;
}

export function optionalBoolean(body: JsonObject, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(key, 'a boolean');
  return value;
}

/** `stop`: a string or an array of up to 4 strings (https://platform.openai.com/docs/api-reference/completions/create#completions-create-stop). */
export function optionalStop(body: JsonObject): string[] | undefined {
  const value = body.stop;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw invalid('stop', 'a string or an array of strings');
}
