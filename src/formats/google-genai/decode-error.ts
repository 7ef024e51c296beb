// A Gemini error body {"error":{code,message,status}} → canonical, so it can be re-encoded
// in the client's shape. https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
import type { CanonicalError } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';

const KINDS: Record<string, CanonicalError['kind']> = {
  INVALID_ARGUMENT: 'invalid_request', FAILED_PRECONDITION: 'invalid_request', OUT_OF_RANGE: 'invalid_request',
  UNAUTHENTICATED: 'authentication', PERMISSION_DENIED: 'permission', NOT_FOUND: 'not_found',
  RESOURCE_EXHAUSTED: 'rate_limit', UNIMPLEMENTED: 'not_implemented', INTERNAL: 'api_error',
  UNAVAILABLE: 'overloaded', DEADLINE_EXCEEDED: 'timeout', CANCELLED: 'timeout',
};

function kindFromStatus(status: number): CanonicalError['kind'] {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limit';
  if (status === 503) return 'overloaded';
  if (status === 504) return 'timeout';
  if (status >= 400 && status < 500) return 'invalid_request';
  return 'api_error';
}

export function decodeGoogleError(status: number, body: unknown): CanonicalError {
  // A streamed array body ([{error}]) carries the same object in its first element.
  const root: unknown = Array.isArray(body) ? body[0] : body;
  const error = isPlainObject(root) && isPlainObject(root.error) ? root.error : undefined;
  const code = typeof error?.code === 'number' && error.code >= 400 ? error.code : undefined;
  const effectiveStatus = status >= 400 ? status : code ?? 502;
  const statusName = typeof error?.status === 'string' ? error.status : undefined;
  const message = typeof error?.message === 'string' ? error.message : `The provider answered with HTTP ${effectiveStatus}.`;
  const kind = (statusName === undefined ? undefined : KINDS[statusName]) ?? kindFromStatus(effectiveStatus);
  const retryAfterSeconds = readRetryDelay(error?.details);
  return { status: effectiveStatus, kind, message, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

/** google.rpc.RetryInfo in `details` says how long to wait, e.g. {"retryDelay":"17s"} (https://google.aip.dev/193). */
function readRetryDelay(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  const info: unknown = details.find((detail) => isPlainObject(detail) && typeof detail.retryDelay === 'string');
  const seconds = isPlainObject(info) ? /^(\d+(?:\.\d+)?)s$/.exec(String(info.retryDelay)) : null;
  return seconds ? Math.ceil(Number(seconds[1])) : undefined;
}
