// The console's view of the PostgreSQL trail: request records of every chain, newest
// first, filtered in SQL by time and in memory by field. Reads at most SCAN_LIMIT rows
// per query (an index on ts serves the order); a wider window needs a narrower filter.
import { matches, summarizeUsage, toSummary, type RequestSummary, type TrailReader } from '../admin/trail-reader.js';
import type { Database } from './database.js';

const SCAN_LIMIT = 100_000;

export function createPostgresTrailReader(database: Database): TrailReader {
  const scan = async (since: string | undefined, until: string | undefined): Promise<RequestSummary[]> => {
    const result = await database.query<{ line: string }>(
      `SELECT line FROM gw_audit_records WHERE kind = 'request' AND ($1::timestamptz IS NULL OR ts >= $1) AND ($2::timestamptz IS NULL OR ts <= $2) ORDER BY ts DESC LIMIT $3`,
      [since ?? null, until ?? null, SCAN_LIMIT],
    );
    return result.rows.map((row) => toSummary(row.line)).filter((summary): summary is RequestSummary => summary !== null);
  };
  return {
    async search(filter, limit) {
      const rows = await scan(filter.since, filter.until);
      return rows.filter((summary) => matches(summary, filter)).slice(0, limit);
    },
    async usage(by, since) {
      return summarizeUsage((await scan(since, undefined)).reverse(), by, since);
    },
  };
}
