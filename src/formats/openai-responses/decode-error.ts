// An OpenAI error body {"error":{message,type,param,code}} → canonical.
// https://platform.openai.com/docs/guides/error-codes
import type { CanonicalError } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';

const KINDS: Record<string, CanonicalError['kind']> = {
  invalid_request_error: 'invalid_request', authentication_error: 'authentication', permission_error: 'permission',
  not_found_error: 'not_found', rate_limit_error: 'rate_limit', insufficient_quota: 'rate_limit', rate_limit_exceeded: 'rate_limit',
  server_error: 'api_error', api_error: 'api_error', timeout_error: 'timeout', not_implemented_error: 'not_implemented',
};

function kindFromStatus(status: number): CanonicalError['kind'] {
  const byStatus: Record<number, CanonicalError['kind']> = {
    401: 'authentication', 403: 'permission', 404: 'not_found', 408: 'timeout', 413: 'payload_too_large',
    415: 'unsupported_media_type', 429: 'rate_limit', 501: 'not_implemented', 503: 'overloaded', 504: 'timeout',
  };
  return byStatus[status] ?? (status >= 400 && status < 500 ? 'invalid_request' : 'api_error');
}

export function decodeResponsesError(status: number, body: unknown): CanonicalError {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : isPlainObject(body) ? body : undefined;
  const effectiveStatus = status >= 400 ? status : 502;
  const message = typeof error?.message === 'string' ? error.message : `The provider answered with HTTP ${effectiveStatus}.`;
  // A stream `error` event is {type:"error", code, message}: its code says more than its type.
  const type = typeof error?.type === 'string' && error.type !== 'error' ? error.type : typeof error?.code === 'string' ? error.code : undefined;
  // The status is the more reliable signal: 404 model_not_found arrives as invalid_request_error.
  const kind = status >= 400 ? kindFromStatus(status) : (type === undefined ? undefined : KINDS[type]) ?? 'api_error';
  return { status: effectiveStatus, kind, message };
}
