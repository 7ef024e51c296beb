// OpenAI's error shape, which Chat, Completions and Responses all use:
// {"error":{"message","type","param","code"}}. https://platform.openai.com/docs/guides/error-codes
import type { CanonicalError } from '../../canonical/response.js';
import type { WireError, WireErrorInput } from '../../canonical/codec.js';
import { errorHeaders } from './error-headers.js';

type ErrorKind = CanonicalError['kind'];

const OPENAI_TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'invalid_request_error',
  payload_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  // LiteLLM's type for the same refusal, which clients written against it already tell apart.
  budget: 'budget_exceeded',
  not_implemented: 'not_implemented_error',
  api_error: 'api_error',
  overloaded: 'server_error',
  timeout: 'timeout_error',
};

/** The OpenAI `type` for an error kind, for provider errors re-encoded from canonical form. */
export function openAiErrorType(kind: ErrorKind): string {
  return OPENAI_TYPES[kind];
}

/** `GW_ERR_AUTH_MISSING` → `auth_missing` (the rule of src/errors.ts toSnakeCode); null for a provider's error. */
export function openAiErrorCode(error: WireErrorInput): string | null {
  return error.code === undefined ? null : error.code.replace(/^GW_ERR_/, '').toLowerCase();
}

/** The `{"error":{…}}` body: `code` is the catalog code in snake case for a gw error, null for a provider's. */
function encodeOpenAiErrorBody(error: WireErrorInput): Record<string, unknown> {
  return { error: { message: error.message, type: OPENAI_TYPES[error.kind], param: error.param ?? null, code: openAiErrorCode(error) } };
}

export function encodeOpenAiShapedError(error: WireErrorInput): WireError {
  return { status: error.status, headers: errorHeaders(error), body: encodeOpenAiErrorBody(error) };
}

/** After the first byte: the error object on a data line, and no [DONE] after it (what openai-node's Stream throws on). */
export function encodeOpenAiShapedStreamError(error: WireErrorInput): string {
  return `data: ${JSON.stringify(encodeOpenAiErrorBody(error))}\n\n`;
}
