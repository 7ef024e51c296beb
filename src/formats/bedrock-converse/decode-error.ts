// Provider side: a Bedrock error → canonical. The body is {"message"} (sometimes "Message");
// the exception name is in the x-amzn-errortype header or the body's __type
// ("ValidationException" or "com.amazon.coral.validate#ValidationException").
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
import type { CanonicalError } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';

type Kind = CanonicalError['kind'];

const KINDS_BY_EXCEPTION: Record<string, Kind> = {
  validationexception: 'invalid_request',
  accessdeniedexception: 'permission',
  unrecognizedclientexception: 'authentication',
  expiredtokenexception: 'authentication',
  resourcenotfoundexception: 'not_found',
  throttlingexception: 'rate_limit',
  servicequotaexceededexception: 'rate_limit',
  internalserverexception: 'api_error',
  modelstreamerrorexception: 'api_error',
  modelerrorexception: 'api_error',
  modelnotreadyexception: 'overloaded',
  serviceunavailableexception: 'overloaded',
  modeltimeoutexception: 'timeout',
};

const STATUS_BY_KIND: Record<Kind, number> = {
  invalid_request: 400, authentication: 403, permission: 403, not_found: 404, payload_too_large: 413,
  unsupported_media_type: 415, rate_limit: 429, budget: 402, not_implemented: 501, api_error: 500, overloaded: 503, timeout: 408,
};

export function decodeBedrockError(status: number, body: unknown, errorType?: string): CanonicalError {
  const record = isPlainObject(body) ? body : {};
  const message = typeof record.message === 'string' ? record.message
    : typeof record.Message === 'string' ? record.Message : `Bedrock answered with status ${status}.`;
  const type = errorType ?? (typeof record.__type === 'string' ? record.__type : undefined);
  const kind = kindOf(type) ?? kindForStatus(status);
  return { status: status >= 400 ? status : STATUS_BY_KIND[kind], kind, message };
}

/** `ValidationException`, `validationException` or `com.amazon.coral.validate#ValidationException:…` → a kind. */
function kindOf(type: string | undefined): Kind | undefined {
  if (type === undefined) return undefined;
  const name = (type.split('#').at(-1) ?? type).split(':')[0]?.trim().toLowerCase() ?? '';
  return KINDS_BY_EXCEPTION[name];
}

function kindForStatus(status: number): Kind {
  const byStatus: Record<number, Kind> = {
    400: 'invalid_request', 401: 'authentication', 403: 'permission', 404: 'not_found', 408: 'timeout',
    413: 'payload_too_large', 424: 'api_error', 429: 'rate_limit', 503: 'overloaded',
  };
  return byStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request');
}
