// OpenAI's `usage` object, as Chat and Completions (and, under input/output names, Responses
// and embeddings) report it: prompt_tokens already includes cached reads and cache writes
// (writes are reported as cache_write_tokens by GPT-5.6 and later, which charge 1.25× input for
// them; older models write for free and do not report them); completion_tokens includes
// reasoning and audio tokens.
// https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
import { toCount, type Usage } from '../../canonical/usage.js';

export function mapOpenAiShapedUsage(usage: unknown): Usage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const promptDetails = (record.prompt_tokens_details ?? record.input_tokens_details) as Record<string, unknown> | undefined;
  const completionDetails = (record.completion_tokens_details ?? record.output_tokens_details) as Record<string, unknown> | undefined;
  return {
    // Chat/Completions name them prompt/completion; Responses and embeddings use input/output.
    inputTokens: toCount(record.prompt_tokens ?? record.input_tokens),
    outputTokens: toCount(record.completion_tokens ?? record.output_tokens),
    cachedReadTokens: toCount(promptDetails?.cached_tokens),
    cacheWriteTokens: positive(toCount(promptDetails?.cache_write_tokens)),
    reasoningTokens: toCount(completionDetails?.reasoning_tokens),
    audioInputTokens: positive(toCount(promptDetails?.audio_tokens)),
    audioOutputTokens: positive(toCount(completionDetails?.audio_tokens)),
    totalTokens: toCount(record.total_tokens),
  };
}

/** Text-only calls report `audio_tokens: 0`: kept out, so a translated call matches one that never had the field. */
function positive(count: number | undefined): number | undefined {
  return count === 0 ? undefined : count;
}

/** Canonical usage → OpenAI's `usage`; prompt_tokens already includes cached tokens on both sides. */
export function encodeOpenAiShapedUsage(usage: Usage): Record<string, unknown> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const body: Record<string, unknown> = {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: usage.totalTokens ?? input + output,
  };
  if (usage.cachedReadTokens !== undefined || usage.cacheWriteTokens !== undefined || usage.audioInputTokens !== undefined) {
    body.prompt_tokens_details = {
      cached_tokens: usage.cachedReadTokens ?? 0,
      ...(usage.cacheWriteTokens !== undefined ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
      ...(usage.audioInputTokens !== undefined ? { audio_tokens: usage.audioInputTokens } : {}),
    };
  }
  if (usage.reasoningTokens !== undefined || usage.audioOutputTokens !== undefined) {
    body.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens ?? 0, ...(usage.audioOutputTokens !== undefined ? { audio_tokens: usage.audioOutputTokens } : {}) };
  }
  return body;
}
