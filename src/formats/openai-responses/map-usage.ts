// Responses `usage`: input_tokens includes input_tokens_details.cached_tokens and (GPT-5.6 and
// later) input_tokens_details.cache_write_tokens; output_tokens
// includes output_tokens_details.reasoning_tokens. https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
import { toCount, type Usage } from '../../canonical/usage.js';
import { isPlainObject } from '../shared/json-guards.js';

export function mapResponsesUsage(usage: unknown): Usage | undefined {
  if (!isPlainObject(usage)) return undefined;
  const inputDetails = isPlainObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const outputDetails = isPlainObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return {
    inputTokens: toCount(usage.input_tokens),
    outputTokens: toCount(usage.output_tokens),
    cachedReadTokens: toCount(inputDetails.cached_tokens),
    cacheWriteTokens: positive(toCount(inputDetails.cache_write_tokens)),
    reasoningTokens: toCount(outputDetails.reasoning_tokens),
    // Realtime's Responses-shaped usage splits input and output by modality.
    audioInputTokens: positive(toCount(inputDetails.audio_tokens)),
    audioOutputTokens: positive(toCount(outputDetails.audio_tokens)),
    totalTokens: toCount(usage.total_tokens),
  };
}

function positive(count: number | undefined): number | undefined {
  return count === 0 ? undefined : count;
}

/** The wire object has no optional counts: unknown ones are sent as 0 (Codex reads reasoning_tokens). */
export function encodeResponsesUsage(usage: Usage): Record<string, unknown> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedReadTokens ?? 0, ...(usage.cacheWriteTokens !== undefined ? { cache_write_tokens: usage.cacheWriteTokens } : {}) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output,
  };
}
