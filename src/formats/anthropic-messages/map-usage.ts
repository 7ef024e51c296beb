// Anthropic `usage`: input_tokens excludes cache reads and cache writes, so the
// normalised input adds them back; `cache_creation` splits the writes by lifetime (5 min, 1 h);
// thinking is inside output_tokens and not reported apart. https://docs.anthropic.com/en/api/messages#response-usage
import { toCount, type Usage } from '../../canonical/usage.js';

export function mapAnthropicUsage(usage: unknown): Usage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const uncached = toCount(record.input_tokens);
  const cachedRead = toCount(record.cache_read_input_tokens);
  const cacheWrite = toCount(record.cache_creation_input_tokens);
  const output = toCount(record.output_tokens);
  const input = uncached === undefined ? undefined : uncached + (cachedRead ?? 0) + (cacheWrite ?? 0);
  const creation = record.cache_creation;
  const write1h = typeof creation === 'object' && creation !== null ? toCount((creation as Record<string, unknown>).ephemeral_1h_input_tokens) : undefined;
  return {
    inputTokens: input,
    outputTokens: output,
    cachedReadTokens: cachedRead,
    cacheWriteTokens: cacheWrite,
    cacheWrite1hTokens: write1h === 0 ? undefined : write1h,
    totalTokens: input !== undefined && output !== undefined ? input + output : undefined,
  };
}

/** Streams report input in message_start and output in message_delta; later values win. */
export function mergeUsage(earlier: Usage | undefined, later: Usage | undefined): Usage | undefined {
  if (!earlier) return later;
  if (!later) return earlier;
  const merged: Usage = { ...earlier };
  for (const [name, value] of Object.entries(later) as Array<[keyof Usage, number | undefined]>) {
    if (value !== undefined) merged[name] = value;
  }
  if (merged.inputTokens !== undefined && merged.outputTokens !== undefined) merged.totalTokens = merged.inputTokens + merged.outputTokens;
  return merged;
}

/** Canonical usage → Anthropic `usage`: input_tokens gives back the cache reads and writes counted in inputTokens. */
export function encodeAnthropicUsage(usage: Usage): Record<string, unknown> {
  const cachedRead = usage.cachedReadTokens;
  const cacheWrite = usage.cacheWriteTokens;
  const uncached = Math.max(0, (usage.inputTokens ?? 0) - (cachedRead ?? 0) - (cacheWrite ?? 0));
  const body: Record<string, unknown> = {
    input_tokens: uncached,
    cache_creation_input_tokens: cacheWrite ?? null,
    cache_read_input_tokens: cachedRead ?? null,
    output_tokens: usage.outputTokens ?? 0,
  };
  if (usage.cacheWrite1hTokens !== undefined) {
    body.cache_creation = { ephemeral_5m_input_tokens: Math.max(0, (cacheWrite ?? 0) - usage.cacheWrite1hTokens), ephemeral_1h_input_tokens: usage.cacheWrite1hTokens };
  }
  return body;
}
