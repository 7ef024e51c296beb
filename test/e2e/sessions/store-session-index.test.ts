// The session view on PostgreSQL through the session facet's indexes (migration 0004), on a real
// server with rows from the real trail writer: a session's calls are found by index, including a
// row written before the session facet existed (no cache facets at all); a row whose facet was
// edited to name another session is not that session's (the line decides); and the list of
// sessions, read page by page through the index, is exactly the one summed from every line.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeSessions } from '../../../src/admin/session-list.js';
import { toSummary, type TrailReader } from '../../../src/admin/trail-reader.js';
import type { AuditFields } from '../../../src/audit/record.js';
import { loadOrCreateSigningKey } from '../../../src/audit/signing-key.js';
import { openDatabase, type Database } from '../../../src/postgres/database.js';
import { migrate } from '../../../src/postgres/migrations.js';
import { openPostgresAuditTrail } from '../../../src/postgres/postgres-audit-trail.js';
import { requestFacets } from '../../../src/postgres/request-facets.js';
import { createPostgresTrailReader } from '../../../src/postgres/postgres-trail-reader.js';
import { makeHome } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';

const START = Date.parse('2026-11-20T09:00:00Z');
const FILLER = 30_000;
let postgres: PostgresServer;
let database: Database;
let reader: TrailReader;

const model = (id: string, session: string, extra: Partial<AuditFields> = {}): AuditFields => ({
  kind: 'request', request_id: id, person: 'ana@example.com', team: 'eng', route: '/v1/messages', family: 'anthropic', operation: 'messages',
  model: 'claude-sonnet-4-5', status: 200, latency_ms: 400, tokens: { input: 10, output: 5, cached_read: 3 }, cost: { nano_usd: 100, price: 'dataset' },
  outcome: ['ok'], session, agent: 'claude-code/2.1.197', ...extra,
});

/** Rows as gw's writer stores them (line and facets), for many sessions over October: many end with an MCP handshake, which the list does not count. */
async function fill(): Promise<void> {
  const chain = randomUUID();
  await database.query(`INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash) VALUES ($1, 'filler', now(), 0, 'x')`, [chain]);
  const lines: string[] = [];
  const times: string[] = [];
  const facets: string[] = [];
  for (let n = 1; n <= FILLER; n += 1) {
    const ts = new Date(Date.parse('2026-10-01T00:00:00Z') + n * 60_000 + (n % 7) * 3_600_000).toISOString();
    // About 750 sessions of about 36 calls, ten at a time: a list of 500 ranks more rows than the first ranking reads.
    const session = n % 11 === 0 ? undefined : `fill-${Math.floor(n / 400)}-${n % 10}`;
    const handshake = n % 400 >= 380 && n % 3 === 0;
    const record = {
      v: 1, seq: n, ts, kind: 'request', request_id: `f_${n}`, person: `p${n % 30}@example.com`, team: `team-${n % 5}`, route: handshake ? '/mcp' : '/v1/messages',
      operation: handshake ? 'mcp' : 'messages', ...(handshake ? { data: { mcp: { method: 'initialize' } } } : { model: 'claude-sonnet-4-5', tokens: { input: n % 100, output: 3 }, cost: { nano_usd: n } }),
      status: 200, latency_ms: 20, outcome: ['ok'], ...(session ? { session } : {}), agent: 'codex/0.169.0',
    };
    lines.push(JSON.stringify(record));
    times.push(ts);
    facets.push(JSON.stringify(requestFacets(record)));
  }
  // MCP clients that connected and did nothing, after every session above: ranked first by their facets, listed never.
  for (let n = 1; n <= 120; n += 1) {
    const ts = new Date(Date.parse('2026-10-31T00:00:00Z') + n * 1_000).toISOString();
    const record = { v: 1, seq: FILLER + n, ts, kind: 'request', request_id: `idle_${n}`, person: 'p7@example.com', team: 'team-2', route: '/mcp', operation: 'mcp', data: { mcp: { method: 'initialize' } }, status: 200, latency_ms: 5, outcome: ['ok'], session: `idle-${n}` };
    lines.push(JSON.stringify(record));
    times.push(ts);
    facets.push(JSON.stringify(requestFacets(record)));
  }
  await database.query(
    `INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line, facets)
     SELECT $1, n, ts, 'request', line, facets FROM unnest($2::text[], $3::timestamptz[], $4::jsonb[]) WITH ORDINALITY AS made (line, ts, facets, n)`,
    [chain, lines, times, facets],
  );
}

async function indexScans(): Promise<Record<string, number>> {
  const result = await database.query<{ name: string; scans: string }>(
    `SELECT indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes WHERE indexrelname IN ('gw_audit_requests_session', 'gw_audit_requests_session_unfaceted')`,
  );
  return Object.fromEntries(result.rows.map((row) => [row.name, Number(row.scans)]));
}

beforeAll(async () => {
  postgres = await startPostgres();
  database = openDatabase(await postgres.createDatabase());
  await migrate(database);
  let clock = START;
  const trail = await openPostgresAuditTrail({ database, signingKey: await loadOrCreateSigningKey(await makeHome('gw-session-index-')), now: () => new Date(clock) });
  const records = [
    model('old_1', 'run-old'), model('a_old', 'run-a'), model('a_1', 'run-a'), model('b_1', 'run-b', { person: 'bo@example.com' }),
    model('a_2', 'run-a'), model('b_moved', 'run-b', { person: 'bo@example.com' }), model('b_ghost', 'run-b', { person: 'bo@example.com' }),
  ];
  for (const [index, record] of records.entries()) {
    clock = START + index * 1_000;
    await trail.append(record);
  }
  await trail.close();
  // a_old and old_1 as a gw before the prompt-cache facets stored them: no session, no cache facet.
  await database.query(`UPDATE gw_audit_records SET facets = facets - 'session' - 'cache_read' - 'cache_write' - 'cache_saved_nano_usd' - 'cache_break' WHERE facets->>'request_id' IN ('a_old', 'old_1')`);
  // Two edited facets: b_moved's names run-a, b_ghost's a session no line names.
  await database.query(`UPDATE gw_audit_records SET facets = jsonb_set(facets, '{session}', '"run-a"') WHERE facets->>'request_id' = 'b_moved'`);
  await database.query(`UPDATE gw_audit_records SET facets = jsonb_set(facets, '{session}', '"run-ghost"') WHERE facets->>'request_id' = 'b_ghost'`);
  await fill();
  await database.query('ANALYZE gw_audit_records');
  reader = createPostgresTrailReader(database);
}, 120_000);

afterAll(async () => {
  await database?.end();
  await postgres?.destroy();
});

describe('one session on PostgreSQL', () => {
  it('is found through the session indexes, older rows without a session facet included', async () => {
    const before = await indexScans();
    expect(Object.keys(before).sort()).toEqual(['gw_audit_requests_session', 'gw_audit_requests_session_unfaceted']);
    const calls = await reader.session('run-a');
    expect(calls.map((call) => call.request_id)).toEqual(['a_old', 'a_1', 'a_2']);
    expect((await reader.session('run-old')).map((call) => call.request_id)).toEqual(['old_1']);
    // The statistics reach the view when the reading connection goes idle.
    await expect.poll(async () => {
      const after = await indexScans();
      return [after.gw_audit_requests_session! > before.gw_audit_requests_session!, after.gw_audit_requests_session_unfaceted! > before.gw_audit_requests_session_unfaceted!];
    }, { timeout: 15_000 }).toEqual([true, true]);
  });

  it('is decided by the line: a row whose facet was edited to name another session is not returned for it', async () => {
    expect((await reader.session('run-a')).map((call) => call.request_id)).not.toContain('b_moved');
    expect(await reader.session('run-ghost')).toEqual([]);
  });
});

describe('the list of sessions on PostgreSQL', () => {
  it('counts older rows, and no row under a session its facet was edited to', async () => {
    const sessions = await reader.sessions({ since: '2026-11-20T00:00:00Z' }, 100);
    expect(sessions.map((row) => [row.session, row.calls])).toEqual([['run-a', 3], ['run-b', 1], ['run-old', 1]]);
  });

  it('is exactly the list summed from every line of the window, page after page of the index', async () => {
    const everything = (await database.query<{ line: string }>(`SELECT line FROM gw_audit_records WHERE kind = 'request' ORDER BY ts, chain_id, seq`)).rows
      .map((row) => toSummary(row.line)).filter((summary) => summary !== null);
    for (const [filter, limit] of [[{ since: '2026-10-01' }, 100], [{ since: '2026-10-05' }, 500], [{ since: '2026-10-01', team: 'team-2' }, 37], [{ since: '2026-10-01', person: 'p7@example.com' }, 3], [{ since: '2026-10-01' }, 10]] as const) {
      const expected = summarizeSessions(everything, filter, limit).filter((row) => row.session !== 'run-a' && row.session !== 'run-b');
      const listed = (await reader.sessions(filter, limit)).filter((row) => row.session !== 'run-a' && row.session !== 'run-b');
      expect(listed.length).toBeGreaterThan(0);
      expect(listed).toEqual(expected);
    }
  });
});
