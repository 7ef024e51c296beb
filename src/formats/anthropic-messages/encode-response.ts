// The canonical response → a Message object for the client.
// https://docs.anthropic.com/en/api/messages#response
import type { CodecContext } from '../../canonical/codec.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { encodeAnthropicStopReason } from './map-finish-reason.js';
import { encodeAnthropicUsage } from './map-usage.js';
import { isPlainObject } from '../../is-plain-object.js';

export function encodeAnthropicResponse(response: CanonicalResponse, context: CodecContext): Record<string, unknown> {
  const content: Array<Record<string, unknown>> = [];
  for (const part of response.content) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'tool-call') content.push({ type: 'tool_use', id: part.id, name: part.name, input: parseInput(part.arguments) });
    else if (part.redacted !== undefined) content.push({ type: 'redacted_thinking', data: part.redacted });
    // Thinking from another provider has no signature; sent as '' it still shows, and is not sent back (encode-content).
    else content.push({ type: 'thinking', thinking: part.text, signature: part.signature ?? '' });
  }
  const stopSequence = response.extensions.anthropic?.stop_sequence;
  return {
    id: response.id !== '' ? response.id : `msg_${context.ids()}`,
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: encodeAnthropicStopReason(response.finishReason),
    stop_sequence: typeof stopSequence === 'string' ? stopSequence : null,
    usage: encodeAnthropicUsage(response.usage),
  };
}

/** Anthropic clients expect `input` as an object; broken JSON from another model is kept as {}. */
export function parseInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}
