// The prompt-cache columns of a usage report (docs/prompt-cache.md), one set of functions for
// `gw usage`, the admin API's usage report and the console's cache page: tokens read from and
// written to the cache, the hit ratio (cache reads over all input tokens, cached ones included),
// what the cache saved in nano-USD (the records' cost.cache_saved_nano_usd; negative for a miss
// streak) and how many calls broke their session's cache (outcome `cache_break`).

export interface CacheFields {
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** cache_read_tokens / input tokens, four decimals; null with no input. */
  cache_hit_ratio: number | null;
  cache_saved_nano_usd: number;
  cache_breaks: number;
}

/** What of a record (or a console summary) the cache columns read. */
export interface CacheSource {
  tokens?: { input?: number; cached_read?: number; cache_write?: number };
  cost?: unknown;
  outcome?: readonly string[];
}

export function emptyCacheFields(): CacheFields {
  return { cache_read_tokens: 0, cache_write_tokens: 0, cache_hit_ratio: null, cache_saved_nano_usd: 0, cache_breaks: 0 };
}

/** Adds one record's cache use to a row (its ratio is set by finishCacheFields). */
export function addCacheFields(row: CacheFields, record: CacheSource): void {
  row.cache_read_tokens += record.tokens?.cached_read ?? 0;
  row.cache_write_tokens += record.tokens?.cache_write ?? 0;
  const saved = (record.cost as { cache_saved_nano_usd?: unknown } | undefined)?.cache_saved_nano_usd;
  if (typeof saved === 'number' && Number.isFinite(saved)) row.cache_saved_nano_usd += saved;
  if (record.outcome?.includes('cache_break')) row.cache_breaks += 1;
}

export function cacheHitRatio(cacheRead: number, input: number): number | null {
  return input > 0 ? Math.round((cacheRead / input) * 10_000) / 10_000 : null;
}

/** Sets the ratio once the row's input tokens are summed. */
export function finishCacheFields<T extends CacheFields>(row: T, inputTokens: number): T {
  row.cache_hit_ratio = cacheHitRatio(row.cache_read_tokens, inputTokens);
  return row;
}
