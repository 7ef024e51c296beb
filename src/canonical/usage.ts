// Token usage, normalised across dialects. `inputTokens` counts every input token,
// cached ones included (OpenAI's prompt_tokens already does; Anthropic's
// input_tokens excludes cache reads and writes, so its mapper adds them back).
// Unknown is undefined, never 0.
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cachedReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  totalTokens?: number;
}

export function toCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
