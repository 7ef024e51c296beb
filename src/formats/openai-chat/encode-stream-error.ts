// After the first byte the status is sent, so an error travels as a stream event.
// OpenAI streams carry an error object on a data line, and no [DONE] follows.
import type { GatewayError } from '../../errors.js';
import { encodeOpenAiError } from './encode-error.js';

export function encodeOpenAiStreamError(error: GatewayError): string {
  return `data: ${JSON.stringify(encodeOpenAiError(error).body)}\n\n`;
}
