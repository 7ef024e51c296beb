// Client side: canonical → a text_completion object. Only text can be shown: tool calls
// and reasoning have no place in `choices[0].text` (the pipeline's request-side warnings
// already said tools were dropped).
// https://platform.openai.com/docs/api-reference/completions/object
import type { CodecContext } from '../../canonical/codec.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { toCompletionsFinishReason } from './map-finish-reason.js';
import { toCompletionsUsage } from './map-usage.js';

export function encodeCompletionsResponse(response: CanonicalResponse, context: CodecContext): Record<string, unknown> {
  const text = response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const body: Record<string, unknown> = {
    id: response.id === '' ? `cmpl-${context.ids()}` : response.id,
    object: 'text_completion',
    created: context.now(),
    model: response.model,
    choices: [{ text, index: 0, logprobs: null, finish_reason: toCompletionsFinishReason(response.finishReason) }],
    usage: toCompletionsUsage(response.usage),
  };
  const fingerprint = response.extensions.openai?.system_fingerprint;
  if (typeof fingerprint === 'string') body.system_fingerprint = fingerprint;
  return body;
}
