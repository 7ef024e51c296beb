// Boundary checks for untrusted request bodies, shared by openai-chat and anthropic-messages:
// a wrong type becomes GW_ERR_REQUEST_INVALID naming the exact field, so the client can fix it.
import { GatewayError } from '../../errors.js';
import { isPlainObject } from '../../is-plain-object.js';

export type JsonObject = Record<string, unknown>;

export const isRecord: (value: unknown) => value is JsonObject = isPlainObject;

export function invalid(param: string, message: string): never {
  throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: `${param}: ${message}`, param });
}

export function optionalString(record: JsonObject, key: string, param: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') invalid(param, 'must be a string');
  return value;
}

export function optionalNumber(record: JsonObject, key: string, param: string): number | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(param, 'must be a number');
  return value;
}

export function optionalInteger(record: JsonObject, key: string, param: string): number | undefined {
  const value = optionalNumber(record, key, param);
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) invalid(param, 'must be a positive integer');
  return value;
}

export function requireRecord(value: unknown, param: string): JsonObject {
  if (!isRecord(value)) invalid(param, 'must be an object');
  return value;
}

export function requireArray(value: unknown, param: string): unknown[] {
  if (!Array.isArray(value)) invalid(param, 'must be an array');
  return value;
}

/** `data:image/png;base64,AAAA` → its parts; undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)?((?:;[^;,]+)*?);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? 'application/octet-stream', data: match[3] ?? '' };
}
