// Completions `usage`: prompt_tokens (cached tokens included), completion_tokens, total_tokens.
// https://platform.openai.com/docs/api-reference/completions/object#completions/object-usage
import { toCount, type Usage } from '../../canonical/usage.js';

export function mapCompletionsUsage(usage: unknown): Usage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const promptDetails = record.prompt_tokens_details as Record<string, unknown> | undefined;
  const completionDetails = record.completion_tokens_details as Record<string, unknown> | undefined;
  return dropUndefined({
    inputTokens: toCount(record.prompt_tokens),
    outputTokens: toCount(record.completion_tokens),
    cachedReadTokens: toCount(promptDetails?.cached_tokens),
    reasoningTokens: toCount(completionDetails?.reasoning_tokens),
    totalTokens: toCount(record.total_tokens),
  });
}

export function toCompletionsUsage(usage: Usage): Record<string, unknown> {
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

function dropUndefined(usage: Usage): Usage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined)) as Usage;
}
