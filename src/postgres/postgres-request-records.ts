// The request records of the PostgreSQL trail (gw serve --store), every chain together, in time
// order from `since`: what budgets are rebuilt from at start and what `gw usage --store` sums.
// Paged by (ts, chain, seq), with ts kept as text so no microsecond is lost between pages.
import { parseRequestLine, type RequestRecord } from '../spend/read-trail.js';
import type { Database } from './database.js';

const PAGE = 2_000;
const NO_CHAIN = '00000000-0000-0000-0000-000000000000';

export async function* readStoreRequestRecords(database: Database, since?: Date): AsyncGenerator<RequestRecord> {
  let after = { ts: (since ?? new Date(0)).toISOString(), chain: NO_CHAIN, seq: '-1' };
  for (;;) {
    const page = await database.query<{ ts: string; chain_id: string; seq: string; line: string }>(
      `SELECT ts::text AS ts, chain_id::text AS chain_id, seq::text AS seq, line FROM gw_audit_records
        WHERE kind = 'request' AND (ts, chain_id, seq) > ($1::timestamptz, $2::uuid, $3::bigint)
        ORDER BY ts, chain_id, seq LIMIT $4`,
      [after.ts, after.chain, after.seq, PAGE],
    );
    for (const row of page.rows) {
      const record = parseRequestLine(row.line);
      if (record) yield record;
    }
    if (page.rows.length < PAGE) return;
    const last = page.rows.at(-1)!;
    after = { ts: last.ts, chain: last.chain_id, seq: last.seq };
  }
}
