// Anthropic error shape: {"type":"error","error":{"type","message"}}.
// https://docs.anthropic.com/en/api/errors
import type { WireError, WireErrorInput } from '../../canonical/codec.js';
import type { CanonicalError } from '../../canonical/response.js';
import { errorHeaders } from '../shared/error-headers.js';

const ANTHROPIC_TYPES: Record<CanonicalError['kind'], string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  payload_too_large: 'request_too_large',
  unsupported_media_type: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  // Anthropic's own 402 type (https://docs.anthropic.com/en/api/errors).
  budget: 'billing_error',
  not_implemented: 'not_supported',
  api_error: 'api_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
};

export function encodeAnthropicErrorBody(error: WireErrorInput): Record<string, unknown> {
  return { type: 'error', error: { type: ANTHROPIC_TYPES[error.kind], message: error.message } };
}

export function encodeAnthropicError(error: WireErrorInput): WireError {
  return { status: error.status, headers: errorHeaders(error), body: encodeAnthropicErrorBody(error) };
}
