// Canonical usage → the audit record's tokens object (absent when nothing is known).
import type { AuditTokens } from '../../audit/record.js';
import type { Usage } from '../../canonical/usage.js';

export function toAuditTokens(usage: Usage | undefined): AuditTokens | null {
  if (!usage) return null;
  const tokens: AuditTokens = {
    input: usage.inputTokens, output: usage.outputTokens, cached_read: usage.cachedReadTokens,
    cache_write: usage.cacheWriteTokens, total: usage.totalTokens, cache_write_1h: usage.cacheWrite1hTokens,
    reasoning: usage.reasoningTokens, audio_input: usage.audioInputTokens, audio_output: usage.audioOutputTokens,
  };
  return Object.values(tokens).some((value) => value !== undefined) ? tokens : null;
}
