// Google error shape: {"error":{"code","message","status"}} with google.rpc.Code names.
// https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
import type { ErrorKind, GatewayError } from '../../errors.js';
import type { WireError } from '../wire-error.js';

const GOOGLE_STATUSES: Record<ErrorKind, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  authentication: 'UNAUTHENTICATED',
  permission: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  payload_too_large: 'INVALID_ARGUMENT',
  unsupported_media_type: 'INVALID_ARGUMENT',
  rate_limit: 'RESOURCE_EXHAUSTED',
  not_implemented: 'UNIMPLEMENTED',
  api_error: 'INTERNAL',
  overloaded: 'UNAVAILABLE',
  timeout: 'DEADLINE_EXCEEDED',
};

export function encodeGoogleError(error: GatewayError): WireError {
  return {
    status: error.status,
    headers: error.headers,
    body: { error: { code: error.status, message: error.message, status: GOOGLE_STATUSES[error.kind] } },
  };
}

/** The same body for an error that crossed from another dialect (kind and status already decided). */
export function encodeGoogleCanonicalError(error: { status: number; kind: ErrorKind; message: string }): Record<string, unknown> {
  return { error: { code: error.status, message: error.message, status: GOOGLE_STATUSES[error.kind] } };
}
