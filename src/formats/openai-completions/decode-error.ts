// Provider side: an OpenAI error body {"error":{"message","type","param","code"}} → canonical.
// https://platform.openai.com/docs/guides/error-codes
import type { CanonicalError } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';

type Kind = CanonicalError['kind'];

const KINDS_BY_TYPE: Record<string, Kind> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  rate_limit_error: 'rate_limit',
  insufficient_quota: 'rate_limit',
  server_error: 'api_error',
  api_error: 'api_error',
  timeout_error: 'timeout',
  not_implemented_error: 'not_implemented',
};

function kindForStatus(status: number): Kind {
  const byStatus: Record<number, Kind> = {
    400: 'invalid_request', 401: 'authentication', 403: 'permission', 404: 'not_found', 408: 'timeout',
    413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limit', 501: 'not_implemented',
    503: 'overloaded', 504: 'timeout', 529: 'overloaded',
  };
  return byStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request');
}

export function decodeCompletionsError(status: number, body: unknown): CanonicalError {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : undefined;
  const type = typeof error?.type === 'string' ? error.type : undefined;
  const message = typeof error?.message === 'string' ? error.message
    : typeof body === 'string' && body !== '' ? body : `The provider answered with status ${status}.`;
  return { status, kind: kindOf(status, type), message };
}

// The status is the stronger signal (OpenAI types its 404s invalid_request_error); the type
// decides only for a 400 or an in-stream error, which has no status of its own.
function kindOf(status: number, type: string | undefined): Kind {
  const byType = type === undefined ? undefined : KINDS_BY_TYPE[type];
  if (status >= 400 && status !== 400) return kindForStatus(status);
  return byType ?? (status === 400 ? 'invalid_request' : 'api_error');
}
