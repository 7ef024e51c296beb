// The prompt-cache facets of a request record (docs/prompt-cache.md): its session, cache reads
// and writes, saving and cache break, copied beside its line like the other facets
// (request-facets.ts) so the cache report sums them in SQL without parsing lines (~100 µs a row).
// Rows stored before these facets existed have none of them; `gw audit verify --store` then
// compares such a row without them (their cache figures count as 0 in the PostgreSQL report).

export interface CacheFacets {
  session?: string;
  cache_read?: number;
  cache_write?: number;
  cache_saved_nano_usd?: number;
  /** 1 when the call broke its session's cache (outcome `cache_break`). */
  cache_break?: number;
}

export interface CacheFacetFields {
  session?: unknown;
  tokens?: { cached_read?: unknown; cache_write?: unknown };
  cost?: { cache_saved_nano_usd?: unknown };
  outcome?: unknown;
}

const KEYS = ['session', 'cache_read', 'cache_write', 'cache_saved_nano_usd', 'cache_break'] as const;

export function cacheFacets(record: CacheFacetFields): CacheFacets {
  const facets: CacheFacets = {};
  if (typeof record.session === 'string') facets.session = record.session;
  if (typeof record.tokens?.cached_read === 'number') facets.cache_read = record.tokens.cached_read;
  if (typeof record.tokens?.cache_write === 'number') facets.cache_write = record.tokens.cache_write;
  if (typeof record.cost?.cache_saved_nano_usd === 'number') facets.cache_saved_nano_usd = record.cost.cache_saved_nano_usd;
  if (Array.isArray(record.outcome) && record.outcome.includes('cache_break')) facets.cache_break = 1;
  return facets;
}

/** A stored row without any cache facet was written before them: compare it without them. */
export function storedBeforeCacheFacets(stored: unknown): boolean {
  return typeof stored === 'object' && stored !== null && KEYS.every((key) => !(key in stored));
}

export function withoutCacheFacets<T extends object>(facets: T): T {
  const copy = { ...facets } as Record<string, unknown>;
  for (const key of KEYS) delete copy[key];
  return copy as T;
}
