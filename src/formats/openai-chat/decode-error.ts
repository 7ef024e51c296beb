// A provider's OpenAI-shaped error → canonical, so it can be re-encoded in the client's shape.
// Shape {"error":{"message","type","param","code"}}: https://platform.openai.com/docs/guides/error-codes
import type { CanonicalError } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';

type Kind = CanonicalError['kind'];

const KIND_BY_TYPE: Record<string, Kind> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  rate_limit_error: 'rate_limit',
  insufficient_quota: 'rate_limit',
  requests: 'rate_limit',
  tokens: 'rate_limit',
  server_error: 'api_error',
  api_error: 'api_error',
  timeout_error: 'timeout',
  not_implemented_error: 'not_implemented',
};

const KIND_BY_STATUS: Record<number, Kind> = {
  400: 'invalid_request', 401: 'authentication', 403: 'permission', 404: 'not_found', 408: 'timeout',
  413: 'payload_too_large', 415: 'unsupported_media_type', 422: 'invalid_request', 429: 'rate_limit',
  501: 'not_implemented', 503: 'overloaded', 504: 'timeout', 529: 'overloaded',
};

/** The status decides when it is specific (an honest status travels on); the type fills in the rest. */
function kindOfOpenAiError(status: number, type: unknown): Kind {
  const byStatus = KIND_BY_STATUS[status];
  if (byStatus) return byStatus;
  if (typeof type === 'string' && Object.hasOwn(KIND_BY_TYPE, type)) return KIND_BY_TYPE[type] as Kind;
  return status >= 400 && status < 500 ? 'invalid_request' : 'api_error';
}

export function decodeOpenAiChatError(status: number, body: unknown): CanonicalError {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : undefined;
  const message = typeof error?.message === 'string' && error.message !== ''
    ? error.message
    : typeof body === 'string' && body.trim() !== '' ? body.slice(0, 500) : `The provider answered with status ${status}.`;
  // A 2xx or 3xx carrying an error body (e.g. in a stream) is still a failure.
  const honestStatus = status >= 400 ? status : statusOfType(error?.type);
  return { status: honestStatus, kind: kindOfOpenAiError(honestStatus, error?.type), message };
}

function statusOfType(type: unknown): number {
  const kind = typeof type === 'string' && Object.hasOwn(KIND_BY_TYPE, type) ? KIND_BY_TYPE[type] : undefined;
  const entry = Object.entries(KIND_BY_STATUS).find(([, value]) => value === kind);
  return entry ? Number(entry[0]) : 500;
}
