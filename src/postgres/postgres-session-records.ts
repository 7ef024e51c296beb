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
// or not), so nothing is read twice. That index holds the older rows (written by a gw between
// session lineage and the prompt-cache facets) and, rarely, a newer one whose line has such a field
// nested without a session of its own (the line check drops it): it stops growing once every
// instance writes the facet, so a session's lookup reads that small set, not the trail. The list
// ranks sessions by facet and reads whole sessions' lines, page by page (storeSessions).
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

/** The newest rows with a session facet ranked at first; four times as many each time that is not enough. */
const FIRST_RANKED_ROWS = 16_384;

interface Ranking {
  /** The sessions of the newest rows of the window, each with its newest row's time, newest first. */
  sessions: Array<{ session: string; last: number }>;
  /** When the window has more rows: the oldest time ranked, which no unranked session's newest row is after. */
  edge: number | null;
}

/**
 * The sessions of the newest `rows` rows of the window with a session facet (walking the time, person or
 * team index newest first), each at its newest row: a session among them is ranked exactly, and any other
 * one has no row after the oldest ranked. The facet is a copy, but it only ranks; the lines decide.
 */
async function rank(database: Database, where: Where, rows: number): Promise<Ranking> {
  const result = await database.query<{ session: string; last: Date; edge: Date; taken: string }>(
    `WITH newest AS (SELECT facets->>'session' AS session, ts FROM gw_audit_records WHERE ${where.sql} AND ${FACETED} ORDER BY ts DESC LIMIT $${where.params.length + 1})
     SELECT session, max(ts) AS last, (SELECT min(ts) FROM newest) AS edge, (SELECT count(*) FROM newest) AS taken FROM newest GROUP BY 1 ORDER BY 2 DESC, 1`,
    [...where.params, rows],
  );
  const first = result.rows[0];
  return {
    sessions: result.rows.map((row) => ({ session: row.session, last: row.last.getTime() })),
    edge: first !== undefined && Number(first.taken) === rows ? first.edge.getTime() : null,
  };
}

/** `where`: the filter as the explorer's WHERE clause (postgres-trail-reader.ts requestWhere), handed in by the reader. */
export async function storeSessions(database: Database, where: Where, filter: SessionFilter, limit: number): Promise<SessionSummary[]> {
  const wanted = Math.max(0, Math.min(limit, MAX_SESSIONS));
  if (wanted === 0) return [];
  const records = await linesOf(database, `${where.sql} AND ${UNFACETED}`, where.params, MAX_ROWS);
  const read = new Set<string>();
  // A session seen in older rows may have newer, faceted rows too: read them with the first page.
  let pending = records.map((record) => record.session).filter((session): session is string => session !== undefined);
  let rows = FIRST_RANKED_ROWS;
  let ranking = await rank(database, where, rows);
  const pageSize = Math.max(50, wanted * 2);
  for (;;) {
    const unread = ranking.sessions.filter((ranked) => !read.has(ranked.session));
    if (unread.length === 0 && ranking.edge !== null) {
      ranking = await rank(database, where, rows *= 4);
      continue;
    }
    const page = [...new Set([...pending, ...unread.slice(0, pageSize).map((ranked) => ranked.session)])].filter((session) => !read.has(session));
    pending = [];
    page.forEach((session) => read.add(session));
    const budget = MAX_ROWS - records.length;
    if (page.length > 0 && budget > 0) records.push(...await linesOf(database, `${where.sql} AND ${FACETED} AND facets->>'session' = ANY($${where.params.length + 1}::text[])`, [...where.params, page], budget));
    records.sort((a, b) => a.ts.localeCompare(b.ts));
    const list = summarizeSessions(records, filter, wanted);
    // Done when no session not yet read can rank among the list: none has a row after the next ranked one's newest (or the ranking's edge).
    const bound = unread[pageSize]?.last ?? ranking.edge;
    if (bound === null || records.length >= MAX_ROWS) return list;
    if (list.length === wanted && Date.parse(list.at(-1)!.last_ts) > bound) return list;
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
