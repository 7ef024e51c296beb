// Google error shape: {"error":{"code","message","status"}} with google.rpc.Code names.
// https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
import type { WireError, WireErrorInput } from '../../canonical/codec.js';
import type { CanonicalError } from '../../canonical/response.js';
import { errorHeaders } from '../shared/error-headers.js';

const GOOGLE_STATUSES: Record<CanonicalError['kind'], string> = {
  invalid_request: 'INVALID_ARGUMENT',
  authentication: 'UNAUTHENTICATED',
  permission: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  payload_too_large: 'INVALID_ARGUMENT',
  unsupported_media_type: 'INVALID_ARGUMENT',
  rate_limit: 'RESOURCE_EXHAUSTED',
  // Not RESOURCE_EXHAUSTED, which clients retry: a precondition (money left) that waiting alone does not meet.
  budget: 'FAILED_PRECONDITION',
  not_implemented: 'UNIMPLEMENTED',
  api_error: 'INTERNAL',
  overloaded: 'UNAVAILABLE',
  timeout: 'DEADLINE_EXCEEDED',
};

/** The body, for a gw error or one that crossed from another dialect (kind and status already decided). */
export function encodeGoogleCanonicalError(error: WireErrorInput): Record<string, unknown> {
  return { error: { code: error.status, message: error.message, status: GOOGLE_STATUSES[error.kind] } };
}

export function encodeGoogleError(error: WireErrorInput): WireError {
  return { status: error.status, headers: errorHeaders(error), body: encodeGoogleCanonicalError(error) };
}
