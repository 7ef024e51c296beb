// The prompt-cache report of the console and the admin API (docs/prompt-cache.md): per team,
// session, person, key, model, provider or day, the calls, their input tokens and the cache
// columns of src/spend/cache-usage.ts. The file trail sums its in-memory summaries here; the
// PostgreSQL trail sums the same fields' facets in SQL (cacheUsageSql) and both give the same rows.
import { isControlPlaneCall } from '../audit/record.js';
import { inWindow } from './usage-unpriced.js';
import { dayIn, daySql } from '../spend/usage-day.js';
import { addCacheFields, emptyCacheFields, finishCacheFields, type CacheFields } from '../spend/cache-usage.js';

/** The fields of a request summary (trail-reader.ts) this reads; structural, so no import cycle. */
type CachedCall = Parameters<typeof addCacheFields>[1] & { ts: string; operation?: string; tokens?: { input?: number } };
/** The usage report's shape this adds columns to (trail-reader.ts UsageReport), structurally. */
interface GroupedReport { groups: Array<{ group: string }> }

export const CACHE_GROUPINGS = ['team', 'session', 'person', 'key_id', 'model', 'provider', 'day'] as const;
export type CacheGrouping = typeof CACHE_GROUPINGS[number];

export interface CacheUsageRow extends CacheFields {
  group: string;
  requests: number;
  input_tokens: number;
}

export function isCacheGrouping(by: string): by is CacheGrouping {
  return (CACHE_GROUPINGS as readonly string[]).includes(by);
}

function emptyRow(group: string): CacheUsageRow {
  return { group, requests: 0, input_tokens: 0, ...emptyCacheFields() };
}

export function summarizeCacheUsage(summaries: Iterable<CachedCall>, by: CacheGrouping, since?: string, until?: string, tz = 'UTC'): CacheUsageRow[] {
  const rows = new Map<string, CacheUsageRow>();
  for (const summary of summaries) {
    if (!inWindow(summary.ts, since, until) || isControlPlaneCall(summary.operation)) continue;
    const group = by === 'day' ? dayIn(summary.ts, tz) : String((summary as unknown as Record<string, unknown>)[by] ?? '(none)');
    let row = rows.get(group);
    if (!row) { row = emptyRow(group); rows.set(group, row); }
    row.requests += 1;
    row.input_tokens += summary.tokens?.input ?? 0;
    addCacheFields(row, summary);
  }
  return sortRows([...rows.values()].map((row) => finishCacheFields(row, row.input_tokens)));
}

/** Most requests first, then by name: the order of the usage report's groups. */
function sortRows(rows: CacheUsageRow[]): CacheUsageRow[] {
  return rows.sort((a, b) => b.requests - a.requests || a.group.localeCompare(b.group));
}

/** The admin usage report's groups with their cache columns (a group with no cache use gets zeros). */
export function withCacheColumns<Report extends GroupedReport>(report: Report, rows: readonly CacheUsageRow[]): Report {
  const byGroup = new Map(rows.map((row) => [row.group, row]));
  return {
    ...report,
    groups: report.groups.map((group) => {
      const cache = byGroup.get(group.group);
      const { group: _group, requests: _requests, input_tokens: _input, ...fields } = cache ?? { group: '', requests: 0, input_tokens: 0, ...emptyCacheFields() };
      return { ...group, ...fields };
    }),
  };
}

/** One SQL row of cacheUsageSql. */
export interface CacheSqlRow { grouped: string | null; requests: string; input: string; cache_read: string; cache_write: string; saved: string; breaks: string }

/**
 * The PostgreSQL trail's sums, from the rows' facets (src/postgres/cache-facets.ts: no line is
 * parsed). `by` must be a CacheGrouping (checked by the caller); `where` is requestWhere's clause;
 * `zonePlaceholder` the parameter holding the zone of the days.
 */
export function cacheUsageSql(by: CacheGrouping, where: string, zonePlaceholder: string): string {
  const group = by === 'day' ? daySql(zonePlaceholder) : `facets->>'${by}'`;
  const sum = (facet: string) => `coalesce(sum((facets->>'${facet}')::numeric), 0)`;
  return `SELECT ${group} AS grouped, count(*) AS requests, ${sum('input')} AS input, ${sum('cache_read')} AS cache_read, ${sum('cache_write')} AS cache_write,
            ${sum('cache_saved_nano_usd')} AS saved, ${sum('cache_break')} AS breaks
       FROM gw_audit_records WHERE ${where} AND coalesce(facets->>'operation', '') NOT LIKE 'hub.%' GROUP BY 1`;
}

export function cacheRowsFromSql(rows: readonly CacheSqlRow[]): CacheUsageRow[] {
  return sortRows(rows.map((row) => finishCacheFields({
    group: row.grouped ?? '(none)', requests: Number(row.requests), input_tokens: Number(row.input),
    cache_read_tokens: Number(row.cache_read), cache_write_tokens: Number(row.cache_write), cache_hit_ratio: null,
    cache_saved_nano_usd: Number(row.saved), cache_breaks: Number(row.breaks),
  }, Number(row.input))));
}
