// Converse usage: inputTokens excludes cache reads and writes (as Anthropic's does), so the
// canonical input count adds them back; totalTokens counts all of them.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html
import { toCount, type Usage } from '../../canonical/usage.js';

export function mapBedrockUsage(usage: unknown): Usage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const uncached = toCount(record.inputTokens);
  const cacheRead = toCount(record.cacheReadInputTokens);
  const cacheWrite = toCount(record.cacheWriteInputTokens);
  const result: Usage = {};
  if (uncached !== undefined) result.inputTokens = uncached + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const output = toCount(record.outputTokens);
  if (output !== undefined) result.outputTokens = output;
  if (cacheRead !== undefined) result.cachedReadTokens = cacheRead;
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  const total = toCount(record.totalTokens);
  if (total !== undefined) result.totalTokens = total;
  return result;
}

/** Canonical → Converse TokenUsage (all three counts are required there, so unknown is 0). */
export function toBedrockUsage(usage: Usage): Record<string, number> {
  const cacheRead = usage.cachedReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const input = Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite);
  const output = usage.outputTokens ?? 0;
  const body: Record<string, number> = {
    inputTokens: input,
    outputTokens: output,
    totalTokens: usage.totalTokens ?? input + output + cacheRead + cacheWrite,
  };
  if (usage.cachedReadTokens !== undefined) body.cacheReadInputTokens = usage.cachedReadTokens;
  if (usage.cacheWriteTokens !== undefined) body.cacheWriteInputTokens = usage.cacheWriteTokens;
  return body;
}
