// After the first byte the status is sent, so an error travels as a data line carrying
// OpenAI's error object, and no [DONE] follows (what openai-node's Stream throws on).
import type { GatewayError } from '../../errors.js';
import { encodeCompletionsError } from './encode-error.js';

export function encodeCompletionsStreamError(error: GatewayError): string {
  return `data: ${JSON.stringify(encodeCompletionsError(error).body)}\n\n`;
}
