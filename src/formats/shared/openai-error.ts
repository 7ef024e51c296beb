// OpenAI's error shape, which Chat, Completions and Responses all use:
// {"error":{"message","type","param","code"}}. https://platform.openai.com/docs/guides/error-codes
import type { CanonicalError } from '../../canonical/response.js';
import { toSnakeCode, type ErrorKind, type GatewayError } from '../../errors.js';
import type { WireError } from '../wire-error.js';

const OPENAI_TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'invalid_request_error',
  payload_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  not_implemented: 'not_implemented_error',
  api_error: 'api_error',
  overloaded: 'server_error',
  timeout: 'timeout_error',
};

/** The OpenAI `type` for an error kind, for provider errors re-encoded from canonical form. */
export function openAiErrorType(kind: ErrorKind): string {
  return OPENAI_TYPES[kind];
}

/** A gw error: `code` is the catalog code in snake case. */
export function encodeOpenAiShapedError(error: GatewayError): WireError {
  return {
    status: error.status,
    headers: error.headers,
    body: { error: { message: error.message, type: OPENAI_TYPES[error.kind], param: error.param ?? null, code: toSnakeCode(error.code) } },
  };
}

/** A provider's error after translation: no gw code applies. */
export function encodeCanonicalOpenAiError(error: CanonicalError): Record<string, unknown> {
  return { error: { message: error.message, type: OPENAI_TYPES[error.kind], param: null, code: null } };
}
