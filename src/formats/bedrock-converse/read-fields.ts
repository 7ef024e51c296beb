// Boundary checks for untrusted Converse bodies: each throws GW_ERR_REQUEST_INVALID
// naming the field (in the API's own JSON path), so the client learns what to fix.
import { GatewayError } from '../../errors.js';
import { isPlainObject } from '../../is-plain-object.js';

export type JsonObject = Record<string, unknown>;

export const isObject: (value: unknown) => value is JsonObject = isPlainObject;

export function invalid(param: string, expected: string): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message: `Invalid '${param}': expected ${expected}.`, param });
}

export function objectAt(value: unknown, param: string): JsonObject {
  if (!isObject(value)) throw invalid(param, 'an object');
  return value;
}

export function arrayAt(value: unknown, param: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(param, 'an array');
  return value;
}

export function stringAt(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalid(param, 'a string');
  return value;
}

export function optionalNumberAt(value: unknown, param: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(param, 'a number');
  return value;
}

export function optionalStringArrayAt(value: unknown, param: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid(param, 'an array of strings');
  return value;
}
