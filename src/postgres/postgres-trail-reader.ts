// The console's view of the PostgreSQL trail: request records of every chain, newest first.
// Filters run in SQL on the `facets` column (migration 0002: the searched fields, generated
// from each record's line and indexed with the time), so one person's last calls among
// millions of records are an index range. The line is what is shown, and each row is checked
// against the filter again from its line: the index finds, the sealed record decides.
import { CONTROL_OPERATIONS } from '../admin/describe-request.js';
import { described, matches, toSummary, type RequestFilter, type RequestSummary, type TrailReader, type UsageReport } from '../admin/trail-reader.js';
import { StateError } from '../state/state-errors.js';
import { cacheRowsFromSql, cacheUsageSql, isCacheGrouping, type CacheSqlRow } from '../admin/summarize-cache-usage.js';
import type { Database } from './database.js';
import { queryKeyUsage } from './postgres-key-usage.js';
import { UNPRICED_SQL, unpricedModelsIn, usageWhere } from './postgres-usage-unpriced.js';
import { daySql } from '../spend/usage-day.js';
import { storeSessionCalls, storeSessions } from './postgres-session-records.js';

// Fields matched exactly against facets->>name; each has an index (name, ts).
const EXACT_FACETS = ['request_id', 'person', 'team', 'key_id', 'model', 'provider'] as const;
const GROUPINGS = new Set(['team', 'person', 'model', 'provider', 'key_id', 'day']);

function timeOf(name: string, text: string): string {
  if (Number.isNaN(Date.parse(text))) throw new StateError('usage', `${name} must be a time (ISO 8601, e.g. 2026-11-24 or 2026-11-24T09:00:00Z); got ${text}`);
  return text;
}

/** The WHERE clause and its parameters for a filter; kind = 'request' first, as every index is partial on it. */
export function requestWhere(filter: RequestFilter): { sql: string; params: unknown[] } {
  const clauses = ["kind = 'request'"];
  const params: unknown[] = [];
  const add = (clause: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  for (const name of EXACT_FACETS) {
    const wanted = filter[name];
    if (wanted) add((placeholder) => `facets->>'${name}' = ${placeholder}`, wanted);
  }
  if (filter.status) {
    if (/^[1-5]xx$/i.test(filter.status)) add((placeholder) => `facets->>'status_class' = ${placeholder}`, filter.status.toLowerCase());
    else add((placeholder) => `facets->>'status' = ${placeholder}`, filter.status);
  }
  // The plane by operation here; an MCP message's method is not a facet, so matches() sorts /mcp rows by their line.
  const operation = "coalesce(facets->>'operation', '')";
  if (filter.plane === 'data') add((placeholder) => `${operation} NOT LIKE 'hub.%' AND NOT (${operation} = ANY(${placeholder}))`, [...CONTROL_OPERATIONS]);
  if (filter.plane === 'control') add((placeholder) => `(${operation} LIKE 'hub.%' OR ${operation} = 'mcp' OR ${operation} = ANY(${placeholder}))`, [...CONTROL_OPERATIONS]);
  if (filter.since) add((placeholder) => `ts >= ${placeholder}::timestamptz`, timeOf('since', filter.since));
  if (filter.until) add((placeholder) => `ts <= ${placeholder}::timestamptz`, timeOf('until', filter.until));
  return { sql: clauses.join(' AND '), params };
}

interface UsageRow { grouped: string | null; day: string; requests: string; input: string; output: string; dlp_hits: string; cost: string; unpriced: string }

export function createPostgresTrailReader(database: Database): TrailReader {
  return {
    async search(filter, limit) {
      const where = requestWhere(filter);
      const result = await database.query<{ line: string }>(
        `SELECT line FROM gw_audit_records WHERE ${where.sql} ORDER BY ts DESC LIMIT $${where.params.length + 1}`,
        [...where.params, limit],
      );
      return result.rows.map((row) => toSummary(row.line)).filter((summary): summary is RequestSummary => summary !== null && matches(summary, filter)).map(described);
    },
    async usage(by, since, until, tz = 'UTC') {
      if (!GROUPINGS.has(by)) throw new StateError('usage', `by is one of ${[...GROUPINGS].join(', ')}`);
      const where = usageWhere(requestWhere(since ? { since } : {}), until === undefined ? undefined : timeOf('until', until));
      // The zone is a parameter after the window's: the same day as the file trail's (usage-day.ts).
      const day = daySql(`$${where.params.length + 1}`);
      // Summed in SQL from the facets: a month of a busy hub is never read into this process.
      const result = await database.query<UsageRow>(
        `SELECT ${by === 'day' ? day : `facets->>'${by}'`} AS grouped, ${day} AS day, count(*) AS requests,
                coalesce(sum((facets->>'input')::numeric), 0) AS input, coalesce(sum((facets->>'output')::numeric), 0) AS output,
                coalesce(sum((facets->>'dlp_hits')::numeric), 0) AS dlp_hits, coalesce(sum((facets->>'cost_nano_usd')::numeric), 0) AS cost, count(*) FILTER (WHERE ${UNPRICED_SQL}) AS unpriced
           FROM gw_audit_records WHERE ${where.sql} AND coalesce(facets->>'operation', '') NOT LIKE 'hub.%' GROUP BY 1, 2`,
        [...where.params, tz],
      );
      return { ...usageReport(by, result.rows), since: since ?? null, until: until ?? null, tz, unpriced_models: await unpricedModelsIn(database, where) };
    },
    async cacheUsage(by, since, until, tz = 'UTC') {
      if (!isCacheGrouping(by)) throw new StateError('usage', `by is one of team, session, person, key_id, model, provider, day`);
      const where = usageWhere(requestWhere(since ? { since } : {}), until === undefined ? undefined : timeOf('until', until));
      return cacheRowsFromSql((await database.query<CacheSqlRow>(cacheUsageSql(by, where.sql, `$${where.params.length + 1}`), by === 'day' ? [...where.params, tz] : where.params)).rows);
    },
    async providerHealth(since) {
      const where = requestWhere({ since });
      const result = await database.query<{ provider: string; requests: string; errors: string; rate_limited: string; p50: number | null; p95: number | null; last_error_at: Date | null }>(
        `SELECT facets->>'provider' AS provider, count(*) AS requests,
                count(*) FILTER (WHERE facets->>'status_class' = '5xx') AS errors, count(*) FILTER (WHERE facets->>'status' = '429') AS rate_limited,
                percentile_disc(0.5) WITHIN GROUP (ORDER BY (facets->>'latency_ms')::numeric) AS p50,
                percentile_disc(0.95) WITHIN GROUP (ORDER BY (facets->>'latency_ms')::numeric) AS p95,
                max(ts) FILTER (WHERE facets->>'status_class' = '5xx') AS last_error_at
           FROM gw_audit_records WHERE ${where.sql} AND facets ? 'provider' GROUP BY 1`,
        where.params,
      );
      return result.rows.map((row) => ({
        provider: row.provider, requests: Number(row.requests), errors: Number(row.errors), rate_limited: Number(row.rate_limited),
        p50_ms: row.p50 === null ? null : Number(row.p50), p95_ms: row.p95 === null ? null : Number(row.p95),
        last_error_at: row.last_error_at === null ? null : row.last_error_at.toISOString(),
      })).sort((a, b) => b.requests - a.requests || a.provider.localeCompare(b.provider));
    },
    keyUsage: (since) => queryKeyUsage(database, since),
    sessions: (filter, limit) => storeSessions(database, requestWhere(filter), filter, limit),
    session: (id) => storeSessionCalls(database, id),
  };
}

function usageReport(by: string, rows: UsageRow[]): Pick<UsageReport, 'by' | 'groups' | 'daily'> {
  const groups = new Map<string, UsageReport['groups'][number]>();
  const daily: UsageReport['daily'] = [];
  for (const row of rows) {
    const group = row.grouped ?? '(none)';
    const [requests, input, output, hits, cost] = [row.requests, row.input, row.output, row.dlp_hits, row.cost].map(Number) as [number, number, number, number, number];
    const unpriced = Number(row.unpriced);
    const total = groups.get(group) ?? { group, requests: 0, input_tokens: 0, output_tokens: 0, dlp_hits: 0, cost_nano_usd: 0, unpriced: 0 };
    total.requests += requests; total.input_tokens += input; total.output_tokens += output; total.dlp_hits += hits; total.cost_nano_usd += cost; total.unpriced += unpriced;
    groups.set(group, total);
    daily.push({ day: row.day, group, requests, tokens: input + output, dlp_hits: hits, cost_nano_usd: cost, unpriced });
  }
  return {
    by,
    groups: [...groups.values()].sort((a, b) => b.requests - a.requests || a.group.localeCompare(b.group)),
    daily: daily.sort((a, b) => a.day.localeCompare(b.day) || a.group.localeCompare(b.group)),
  };
}
