// The PostgreSQL trail's answers to the console's session view: the request records that name
// a session, read from their lines and summed by the same code as the file trail's
// (src/admin/session-list.ts, session-calls.ts).
//
// Rows are found through the session facet's index (migration 0004), and every row found is
// parsed and checked against its sealed line (toSummary, then the exact session test in
// sessionCallsOf / summarizeSessions): a facet is only a copy, so a row whose facet was edited to
// name another session is not that session's (`gw audit verify --store` reports the edit).
//
// Why the rows found are all of them: a request record's facets carry `session` whenever its
// line does, for every row written since the prompt-cache facets (request-facets.ts). A row
// without the `session` key is either a call that named no session or a row written before those
// facets; the second index holds exactly the rows of that kind whose line has a `"session":"`
// field, which includes every older row that names a session (the line is compact JSON, so a
// session field always reads `"session":"…"`). The two sets are disjoint (the facet key is there
// or not), so nothing is read twice. That index only holds older rows, so it stops growing after
// the upgrade, and reading it is not a scan of the trail.
import { toSummary, type RequestSummary } from '../admin/trail-reader.js';
import { sessionCallsOf, type SessionCall } from '../admin/session-calls.js';
import { MAX_SESSIONS, summarizeSessions, type SessionFilter, type SessionSummary } from '../admin/session-list.js';
import type { Database } from './database.js';

/** The most request records read for one list, as the file trail keeps at most that many in memory. */
const MAX_ROWS = 200_000;

/** Rows with a session facet (index gw_audit_requests_session), and older rows naming a session without one (…_unfaceted): written as the indexes' predicates. */
const FACETED = "facets ? 'session'";
const UNFACETED = `NOT (facets ? 'session') AND strpos(line, '"session":"') > 0`;

type Where = { sql: string; params: unknown[] };

/** `where`: the filter as the explorer's WHERE clause (postgres-trail-reader.ts requestWhere), handed in by the reader. */
export async function storeSessions(database: Database, where: Where, filter: SessionFilter, limit: number): Promise<SessionSummary[]> {
  const wanted = Math.max(0, Math.min(limit, MAX_SESSIONS));
  if (wanted === 0) return [];
  const older = await linesOf(database, `${where.sql} AND ${UNFACETED}`, where.params, MAX_ROWS);
  // Each session's newest row in the window, by its facet: at least its newest call (a handshake counts here, not in the list).
  const ranked = (await database.query<{ session: string; last: Date }>(
    `SELECT facets->>'session' AS session, max(ts) AS last FROM gw_audit_records WHERE ${where.sql} AND ${FACETED} GROUP BY 1 ORDER BY 2 DESC, 1`,
    where.params,
  )).rows;
  const records = [...older];
  const read = new Set<string>();
  // A session seen in older rows may have newer, faceted rows too: read them with the first page.
  let page = [...new Set(older.map((record) => record.session).filter((session): session is string => session !== undefined))];
  let next = 0;
  const pageSize = Math.max(50, wanted * 2);
  for (;;) {
    page.push(...ranked.slice(next, next + pageSize).map((row) => row.session));
    next += pageSize;
    const unread = page.filter((session) => !read.has(session));
    unread.forEach((session) => read.add(session));
    if (unread.length > 0) {
      const budget = MAX_ROWS - records.length;
      if (budget > 0) records.push(...await linesOf(database, `${where.sql} AND ${FACETED} AND facets->>'session' = ANY($${where.params.length + 1}::text[])`, [...where.params, unread], budget));
    }
    records.sort((a, b) => a.ts.localeCompare(b.ts));
    const list = summarizeSessions(records, filter, wanted);
    // Done when no session not yet read can rank among the list: its newest row is no newer than the next one ranked.
    const bound = ranked[next]?.last.getTime();
    if (bound === undefined || records.length >= MAX_ROWS) return list;
    if (list.length === wanted && Date.parse(list.at(-1)!.last_ts) > bound) return list;
    page = [];
  }
}

export async function storeSessionCalls(database: Database, id: string): Promise<SessionCall[]> {
  // Every chain's records of the session in time order (then chain and seq, as gw audit show --store reads them).
  const result = await database.query<{ line: string }>(
    `SELECT line, ts, chain_id, seq FROM gw_audit_records WHERE kind = 'request' AND ${FACETED} AND facets->>'session' = $1
     UNION ALL
     SELECT line, ts, chain_id, seq FROM gw_audit_records WHERE kind = 'request' AND ${UNFACETED} AND strpos(line, $2) > 0
     ORDER BY ts, chain_id, seq`,
    [id, `"session":${JSON.stringify(id)}`],
  );
  return sessionCallsOf(summariesOf(result.rows), id);
}

/**
 * The newest `limit` rows of `whereSql`, parsed. A row found by its session facet is kept only when
 * its line names that session: a row whose facet was edited is no session's, in the list as in the
 * timeline (storeSessionCalls finds it under neither).
 */
async function linesOf(database: Database, whereSql: string, params: unknown[], limit: number): Promise<RequestSummary[]> {
  const result = await database.query<{ line: string; facet: string | null }>(
    `SELECT line, facets->>'session' AS facet FROM gw_audit_records WHERE ${whereSql} ORDER BY ts DESC LIMIT $${params.length + 1}`,
    [...params, limit],
  );
  return result.rows.flatMap((row) => {
    const summary = toSummary(row.line);
    return summary !== null && (row.facet === null || summary.session === row.facet) ? [summary] : [];
  });
}

function summariesOf(rows: Array<{ line: string }>): RequestSummary[] {
  return rows.map((row) => toSummary(row.line)).filter((summary): summary is RequestSummary => summary !== null);
}
