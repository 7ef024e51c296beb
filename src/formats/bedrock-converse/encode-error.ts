// Bedrock runtime error shape: {"message"} with the exception name in x-amzn-ErrorType.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
import type { WireError, WireErrorInput } from '../../canonical/codec.js';
import type { CanonicalError } from '../../canonical/response.js';
import { errorHeaders } from '../shared/error-headers.js';

const BEDROCK_TYPES: Record<CanonicalError['kind'], string> = {
  invalid_request: 'ValidationException',
  authentication: 'UnrecognizedClientException',
  permission: 'AccessDeniedException',
  not_found: 'ResourceNotFoundException',
  payload_too_large: 'ValidationException',
  unsupported_media_type: 'ValidationException',
  rate_limit: 'ThrottlingException',
  // Not a throttling error, which the AWS SDKs retry.
  budget: 'ServiceQuotaExceededException',
  not_implemented: 'ValidationException',
  api_error: 'InternalServerException',
  overloaded: 'ServiceUnavailableException',
  timeout: 'ModelTimeoutException',
};

export function encodeBedrockError(error: WireErrorInput): WireError {
  return {
    status: error.status,
    headers: { ...errorHeaders(error), 'x-amzn-errortype': BEDROCK_TYPES[error.kind] },
    body: { message: error.message },
  };
}
