// OpenAI's `usage` object, as Chat and Completions (and, under input/output names, Responses
// and embeddings) report it: prompt_tokens already includes cached tokens.
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
    reasoningTokens: toCount(completionDetails?.reasoning_tokens),
    totalTokens: toCount(record.total_tokens),
  };
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
  if (usage.cachedReadTokens !== undefined) body.prompt_tokens_details = { cached_tokens: usage.cachedReadTokens };
  if (usage.reasoningTokens !== undefined) body.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  return body;
}
