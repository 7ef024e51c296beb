// The canonical response → a chat.completion object for the client.
// https://platform.openai.com/docs/api-reference/chat/object
import type { CodecContext } from '../../canonical/codec.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { encodeOpenAiFinishReason } from './map-finish-reason.js';
import { encodeOpenAiUsage } from './map-usage.js';

export function encodeOpenAiChatResponse(response: CanonicalResponse, context: CodecContext): Record<string, unknown> {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Array<Record<string, unknown>> = [];
  for (const part of response.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'reasoning') reasoning.push(part.text);
    else toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
  }
  const message: Record<string, unknown> = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null, refusal: null };
  // reasoning_content is the DeepSeek/OpenRouter convention clients such as the AI SDK read; the SDK ignores it.
  if (reasoning.some((text) => text !== '')) message.reasoning_content = reasoning.join('');
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const body: Record<string, unknown> = {
    id: response.id !== '' ? response.id : `chatcmpl-${context.ids()}`,
    object: 'chat.completion',
    created: context.now(),
    model: response.model,
    choices: [{ index: 0, message, logprobs: response.extensions.openai?.logprobs ?? null, finish_reason: encodeOpenAiFinishReason(response.finishReason) }],
    usage: encodeOpenAiUsage(response.usage),
  };
  const fingerprint = response.extensions.openai?.system_fingerprint;
  if (typeof fingerprint === 'string') body.system_fingerprint = fingerprint;
  const tier = response.extensions.openai?.service_tier;
  if (typeof tier === 'string') body.service_tier = tier;
  return body;
}
