// A provider's Anthropic error → canonical, so it can be re-encoded in the client's shape.
// Shape {"type":"error","error":{"type","message"}}: https://docs.anthropic.com/en/api/errors
import type { CanonicalError } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';

type Kind = CanonicalError['kind'];

const BY_TYPE: Record<string, { kind: Kind; status: number }> = {
  invalid_request_error: { kind: 'invalid_request', status: 400 },
  authentication_error: { kind: 'authentication', status: 401 },
  billing_error: { kind: 'permission', status: 402 },
  permission_error: { kind: 'permission', status: 403 },
  not_found_error: { kind: 'not_found', status: 404 },
  request_too_large: { kind: 'payload_too_large', status: 413 },
  rate_limit_error: { kind: 'rate_limit', status: 429 },
  api_error: { kind: 'api_error', status: 500 },
  not_supported: { kind: 'not_implemented', status: 501 },
  timeout_error: { kind: 'timeout', status: 504 },
  overloaded_error: { kind: 'overloaded', status: 529 },
};

const KIND_BY_STATUS: Record<number, Kind> = {
  400: 'invalid_request', 401: 'authentication', 402: 'permission', 403: 'permission', 404: 'not_found', 408: 'timeout',
  413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limit', 501: 'not_implemented', 503: 'overloaded',
  504: 'timeout', 529: 'overloaded',
};

/** status 0 (an in-stream `error` event after a 200) takes the status the type stands for. */
export function decodeAnthropicError(status: number, body: unknown): CanonicalError {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : undefined;
  const known = typeof error?.type === 'string' && Object.hasOwn(BY_TYPE, error.type) ? BY_TYPE[error.type] : undefined;
  const honestStatus = status >= 400 ? status : known?.status ?? 500;
  const kind = KIND_BY_STATUS[honestStatus] ?? known?.kind ?? (honestStatus < 500 ? 'invalid_request' : 'api_error');
  const message = typeof error?.message === 'string' && error.message !== ''
    ? error.message
    : typeof body === 'string' && body.trim() !== '' ? body.slice(0, 500) : `The provider answered with status ${honestStatus}.`;
  return { status: honestStatus, kind, message };
}
