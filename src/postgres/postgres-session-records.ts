// The PostgreSQL trail's answers to the console's session view: the request records that name
// a session, read from their lines and summed by the same code as the file trail's
// (src/admin/session-list.ts, session-calls.ts). The session is not an indexed facet (adding one
// rewrites every row), so the window is bounded by time and the facets' indexes (person, team,
// ts), and a line is picked by a substring test before it is parsed and checked exactly.
import { toSummary, type RequestSummary } from '../admin/trail-reader.js';
import { sessionCallsOf, type SessionCall } from '../admin/session-calls.js';
import { summarizeSessions, type SessionFilter, type SessionSummary } from '../admin/session-list.js';
import type { Database } from './database.js';

/** The newest request records read for one list, as the file trail keeps at most that many in memory. */
const MAX_ROWS = 200_000;

/** `where`: the filter as the explorer's WHERE clause (postgres-trail-reader.ts requestWhere), handed in by the reader. */
export async function storeSessions(database: Database, where: { sql: string; params: unknown[] }, filter: SessionFilter, limit: number): Promise<SessionSummary[]> {
  const result = await database.query<{ line: string }>(
    `SELECT line FROM gw_audit_records WHERE ${where.sql} AND strpos(line, '"session":"') > 0 ORDER BY ts DESC LIMIT $${where.params.length + 1}`,
    [...where.params, MAX_ROWS],
  );
  return summarizeSessions(summariesOf(result.rows), filter, limit);
}

export async function storeSessionCalls(database: Database, id: string): Promise<SessionCall[]> {
  // Every chain's records of the session in time order (then chain and seq, as gw audit show --store reads them).
  const result = await database.query<{ line: string }>(
    `SELECT line FROM gw_audit_records WHERE kind = 'request' AND strpos(line, $1) > 0 ORDER BY ts, chain_id, seq`,
    [`"session":${JSON.stringify(id)}`],
  );
  return sessionCallsOf(summariesOf(result.rows), id);
}

function summariesOf(rows: Array<{ line: string }>): RequestSummary[] {
  return rows.map((row) => toSummary(row.line)).filter((summary): summary is RequestSummary => summary !== null);
}
