// Anthropic error shape: {"type":"error","error":{"type","message"}}.
// https://docs.anthropic.com/en/api/errors
import type { ErrorKind, GatewayError } from '../../errors.js';
import type { WireError } from '../wire-error.js';

const ANTHROPIC_TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  payload_too_large: 'request_too_large',
  unsupported_media_type: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  not_implemented: 'not_supported',
  api_error: 'api_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
};

/** The Anthropic error `type` for an error kind, for provider errors re-encoded from canonical form. */
export function anthropicErrorType(kind: ErrorKind): string {
  return ANTHROPIC_TYPES[kind];
}

export function encodeAnthropicError(error: GatewayError): WireError {
  return {
    status: error.status,
    headers: error.headers,
    body: { type: 'error', error: { type: ANTHROPIC_TYPES[error.kind], message: error.message } },
  };
}
