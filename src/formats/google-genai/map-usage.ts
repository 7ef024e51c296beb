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

/** Canonical → `usageMetadata`. candidatesTokenCount excludes thoughts, which canonical output includes. */
export function encodeGoogleUsage(usage: Usage): Record<string, number> {
  const metadata: Record<string, number> = {};
  if (usage.inputTokens !== undefined) metadata.promptTokenCount = usage.inputTokens;
  if (usage.outputTokens !== undefined) metadata.candidatesTokenCount = Math.max(0, usage.outputTokens - (usage.reasoningTokens ?? 0));
  if (usage.cachedReadTokens !== undefined) metadata.cachedContentTokenCount = usage.cachedReadTokens;
  if (usage.reasoningTokens !== undefined) metadata.thoughtsTokenCount = usage.reasoningTokens;
  const total = usage.totalTokens ?? (usage.inputTokens !== undefined && usage.outputTokens !== undefined ? usage.inputTokens + usage.outputTokens : undefined);
  if (total !== undefined) metadata.totalTokenCount = total;
  return metadata;
}
