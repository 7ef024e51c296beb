// Anthropic documents errors after a 200 as an `error` event in the stream.
// https://docs.anthropic.com/en/api/messages-streaming#error-events
import type { GatewayError } from '../../errors.js';
import { encodeAnthropicError } from './encode-error.js';

export function encodeAnthropicStreamError(error: GatewayError): string {
  return `event: error\ndata: ${JSON.stringify(encodeAnthropicError(error).body)}\n\n`;
}
