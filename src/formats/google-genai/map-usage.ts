// GenAI `usageMetadata`: promptTokenCount includes cachedContentTokenCount (explicit caches
// and implicit cache hits alike); thoughts are counted apart from candidates, and so are the
// tokens of tool-use prompts (billed as input); promptTokensDetails and candidatesTokensDetails
// split the counts by modality. https://ai.google.dev/api/generate-content#UsageMetadata
import { toCount, type Usage } from '../../canonical/usage.js';

export function mapGoogleUsage(usageMetadata: unknown): Usage | undefined {
  if (typeof usageMetadata !== 'object' || usageMetadata === null) return undefined;
  const record = usageMetadata as Record<string, unknown>;
  const candidates = toCount(record.candidatesTokenCount);
  const thoughts = toCount(record.thoughtsTokenCount);
  const prompt = toCount(record.promptTokenCount);
  const toolPrompt = toCount(record.toolUsePromptTokenCount);
  return {
    inputTokens: prompt === undefined ? undefined : prompt + (toolPrompt ?? 0),
    outputTokens: candidates === undefined ? undefined : candidates + (thoughts ?? 0),
    cachedReadTokens: toCount(record.cachedContentTokenCount),
    reasoningTokens: thoughts,
    audioInputTokens: countModality(record.promptTokensDetails, 'AUDIO'),
    audioOutputTokens: countModality(record.candidatesTokensDetails, 'AUDIO'),
    totalTokens: toCount(record.totalTokenCount),
  };
}

/** `[{ modality: 'AUDIO', tokenCount: 120 }, …]` → 120; undefined when the modality is absent. */
function countModality(details: unknown, modality: string): number | undefined {
  if (!Array.isArray(details)) return undefined;
  const entry = details.find((item: unknown) => typeof item === 'object' && item !== null && (item as Record<string, unknown>).modality === modality) as Record<string, unknown> | undefined;
  const count = toCount(entry?.tokenCount);
  return count === 0 ? undefined : count;
}

/** Canonical → `usageMetadata`. candidatesTokenCount excludes thoughts, which canonical output includes. */
export function encodeGoogleUsage(usage: Usage): Record<string, unknown> {
  const metadata: Record<string, number> = {};
  const details: Record<string, unknown> = {};
  if (usage.inputTokens !== undefined) metadata.promptTokenCount = usage.inputTokens;
  if (usage.outputTokens !== undefined) metadata.candidatesTokenCount = Math.max(0, usage.outputTokens - (usage.reasoningTokens ?? 0));
  if (usage.cachedReadTokens !== undefined) metadata.cachedContentTokenCount = usage.cachedReadTokens;
  if (usage.reasoningTokens !== undefined) metadata.thoughtsTokenCount = usage.reasoningTokens;
  if (usage.audioInputTokens !== undefined) details.promptTokensDetails = [{ modality: 'AUDIO', tokenCount: usage.audioInputTokens }];
  if (usage.audioOutputTokens !== undefined) details.candidatesTokensDetails = [{ modality: 'AUDIO', tokenCount: usage.audioOutputTokens }];
  const total = usage.totalTokens ?? (usage.inputTokens !== undefined && usage.outputTokens !== undefined ? usage.inputTokens + usage.outputTokens : undefined);
  if (total !== undefined) metadata.totalTokenCount = total;
  return { ...metadata, ...details };
}
