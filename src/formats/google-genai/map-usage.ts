// GenAI `usageMetadata`: promptTokenCount includes cachedContentTokenCount; thoughts
// are counted apart from candidates. https://ai.google.dev/api/generate-content#UsageMetadata
import { toCount, type Usage } from '../../canonical/usage.js';

export function mapGoogleUsage(usageMetadata: unknown): Usage | undefined {
  if (typeof usageMetadata !== 'object' || usageMetadata === null) return undefined;
  const record = usageMetadata as Record<string, unknown>;
  const candidates = toCount(record.candidatesTokenCount);
  const thoughts = toCount(record.thoughtsTokenCount);
  return {
    inputTokens: toCount(record.promptTokenCount),
    outputTokens: candidates === undefined ? undefined : candidates + (thoughts ?? 0),
    cachedReadTokens: toCount(record.cachedContentTokenCount),
    reasoningTokens: thoughts,
    totalTokens: toCount(record.totalTokenCount),
  };
}
