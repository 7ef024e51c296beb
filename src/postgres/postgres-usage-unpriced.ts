// The PostgreSQL side of the console's unpriced-call counts (src/admin/usage-unpriced.ts is the
// file trail's): the same rule, a request whose cost is `{ price: 'unknown' }`, tested in SQL.
// The facets (migration 0002) hold the cost only when it is known, so a row without one is
// checked against its line; the LIKE is a cheap filter before parsing it, and only rows with no
// cost in their facets are parsed at all.
import { sortUnpricedModels, type UnpricedModel } from '../admin/usage-unpriced.js';
import type { Database } from './database.js';

export const UNPRICED_SQL = `(NOT (facets ? 'cost_nano_usd') AND line LIKE '%"price":"unknown"%' AND (line::jsonb)#>>'{cost,price}' = 'unknown')`;

/**
 * The usage window's WHERE clause: `where` (requestWhere's, with since) and until excluded, as
 * gw usage --until (the explorer's until is included: it is a filter, not a window's end).
 */
export function usageWhere(where: { sql: string; params: unknown[] }, until?: string): { sql: string; params: unknown[] } {
  if (!until) return where;
  return { sql: `${where.sql} AND ts < $${where.params.length + 1}::timestamptz`, params: [...where.params, until] };
}

export async function unpricedModelsIn(database: Database, where: { sql: string; params: unknown[] }): Promise<UnpricedModel[]> {
  const result = await database.query<{ provider: string | null; model: string | null; calls: string }>(
    `SELECT facets->>'provider' AS provider, facets->>'model' AS model, count(*) AS calls
       FROM gw_audit_records WHERE ${where.sql} AND coalesce(facets->>'operation', '') NOT LIKE 'hub.%' AND ${UNPRICED_SQL} GROUP BY 1, 2`,
    where.params,
  );
  return sortUnpricedModels(result.rows.map((row) => ({ provider: row.provider, model: row.model ?? '(no model)', calls: Number(row.calls) })));
}
