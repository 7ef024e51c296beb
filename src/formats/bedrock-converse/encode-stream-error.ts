// After the first byte the status is sent, so an error travels as a stream exception frame
// (:message-type exception, :exception-type one of ConverseStreamOutput's exception members).
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors
import type { WireErrorInput } from '../../canonical/codec.js';
import type { CanonicalError } from '../../canonical/response.js';
import { encodeExceptionFrame } from './event-stream-frames.js';

// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
const STREAM_EXCEPTIONS: Record<CanonicalError['kind'], string> = {
  invalid_request: 'validationException', authentication: 'validationException', permission: 'validationException',
  not_found: 'validationException', payload_too_large: 'validationException', unsupported_media_type: 'validationException',
  not_implemented: 'validationException', rate_limit: 'throttlingException', budget: 'serviceQuotaExceededException', api_error: 'internalServerException',
  overloaded: 'serviceUnavailableException', timeout: 'modelStreamErrorException',
};

export function encodeBedrockStreamError(error: WireErrorInput): Uint8Array {
  return encodeExceptionFrame(STREAM_EXCEPTIONS[error.kind], error.message);
}
