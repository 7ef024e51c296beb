// Anthropic documents errors after a 200 as an `error` event in the stream; no message_stop follows.
// https://docs.anthropic.com/en/api/messages-streaming#error-events
import type { WireErrorInput } from '../../canonical/codec.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import { encodeAnthropicErrorBody } from './encode-error.js';

export function encodeAnthropicStreamError(error: WireErrorInput): string {
  return encodeSseEvent({ event: 'error', data: JSON.stringify(encodeAnthropicErrorBody(error)) });
}
