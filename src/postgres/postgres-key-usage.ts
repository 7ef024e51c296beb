// The Keys page's per-key last use, requests and spend from the PostgreSQL trail, summed in
// SQL from the facets (as usage is): the same numbers summarizeKeyUsage gives over the lines.
import type { KeyUsage } from '../admin/key-usage.js';
import { StateError } from '../state/state-errors.js';
import type { Database } from './database.js';

interface KeyUsageRow { key_id: string; last_used_at: Date; requests: string; cost: string }

export async function queryKeyUsage(database: Database, since: string): Promise<KeyUsage[]> {
  if (Number.isNaN(Date.parse(since))) throw new StateError('usage', `since must be a time (ISO 8601, e.g. 2026-11-24 or 2026-11-24T09:00:00Z); got ${since}`);
  // Control-plane calls (hub.*) count as a use but not as a request, as usage leaves them out.
  const result = await database.query<KeyUsageRow>(
    `SELECT facets->>'key_id' AS key_id, max(ts) AS last_used_at,
            count(*) FILTER (WHERE coalesce(facets->>'operation', '') NOT LIKE 'hub.%') AS requests,
            coalesce(sum((facets->>'cost_nano_usd')::numeric) FILTER (WHERE coalesce(facets->>'operation', '') NOT LIKE 'hub.%'), 0) AS cost
       FROM gw_audit_records WHERE kind = 'request' AND ts >= $1::timestamptz AND facets ? 'key_id' GROUP BY 1`,
    [since],
  );
  return result.rows
    .map((row) => ({ key_id: row.key_id, last_used_at: row.last_used_at.toISOString(), requests: Number(row.requests), cost_nano_usd: Number(row.cost) }))
    .sort((a, b) => a.key_id.localeCompare(b.key_id));
}
