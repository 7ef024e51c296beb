// A provider's chat.completion object → the canonical response.
// https://platform.openai.com/docs/api-reference/chat/object
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { GatewayError } from '../../errors.js';
import { mapOpenAiFinishReason } from './map-finish-reason.js';
import { mapOpenAiUsage } from './map-usage.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

export function decodeOpenAiChatResponse(body: unknown): Decoded<CanonicalResponse> {
  if (!isPlainObject(body) || !Array.isArray(body.choices)) {
    throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: 'The provider sent a chat completion without choices.' });
  }
  const warnings: TranslationWarning[] = [];
  if (body.choices.length > 1) warnings.push({ code: 'dropped:choices', detail: `${body.choices.length - 1} choices beyond the first` });
  const choice = isPlainObject(body.choices[0]) ? body.choices[0] : {};
  const message = isPlainObject(choice.message) ? choice.message : {};
  const response: CanonicalResponse = {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    content: decodeMessageContent(message, warnings),
    finishReason: mapOpenAiFinishReason(choice.finish_reason),
    usage: mapOpenAiUsage(body.usage) ?? {},
    extensions: {},
  };
  const extension: JsonRecord = {};
  for (const key of ['system_fingerprint', 'service_tier'] as const) {
    if (typeof body[key] === 'string') extension[key] = body[key];
  }
  if (choice.logprobs !== undefined && choice.logprobs !== null) extension.logprobs = choice.logprobs;
  if (Object.keys(extension).length > 0) response.extensions.openai = extension;
  return { value: response, warnings };
}

function decodeMessageContent(message: JsonRecord, warnings: TranslationWarning[]): AssistantPart[] {
  const parts: AssistantPart[] = [];
  // Not in OpenAI's own API: DeepSeek, OpenRouter and vLLM add the thinking as reasoning_content / reasoning.
  const reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : message.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') parts.push({ type: 'reasoning', text: reasoning });
  if (typeof message.content === 'string' && message.content !== '') parts.push({ type: 'text', text: message.content });
  if (typeof message.refusal === 'string') {
    parts.push({ type: 'text', text: message.refusal });
    warnings.push({ code: 'mapped:refusal', detail: 'the refusal became text' });
  }
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : undefined;
      if (!fn || !isPlainObject(call)) continue;
      parts.push({ type: 'tool-call', id: String(call.id ?? ''), name: String(fn.name ?? ''), arguments: typeof fn.arguments === 'string' ? fn.arguments : '' });
    }
  }
  if (isPlainObject(message.function_call)) {
    warnings.push({ code: 'dropped:function_call', detail: 'the deprecated function_call has no call id' });
  }
  if (message.audio !== undefined && message.audio !== null) warnings.push({ code: 'dropped:audio', detail: 'audio output' });
  return parts;
}
