// Token usage, normalised across dialects. `inputTokens` counts every input token,
// cached ones included (OpenAI's prompt_tokens already does; Anthropic's
// input_tokens excludes cache reads and writes, so its mapper adds them back).
// The other counts are parts of those two: uncached input = input − cache read −
// cache write; reasoning and audio output are inside outputTokens. The README's
// "Usage by provider" table gives each provider's fields and source.
// Unknown is undefined, never 0.
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cachedReadTokens?: number;
  cacheWriteTokens?: number;
  /** The part of cacheWriteTokens written with a one-hour lifetime (Anthropic prices it apart from 5 min). */
  cacheWrite1hTokens?: number;
  reasoningTokens?: number;
  /** Audio tokens inside inputTokens / outputTokens (OpenAI audio models, Gemini, realtime). */
  audioInputTokens?: number;
  audioOutputTokens?: number;
  totalTokens?: number;
}

export function toCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
