// The console's session view on PostgreSQL at scale (docs/sessions.md): fills a fresh database
// with BENCH_SESSION_ROWS request records (1,000,000 by default, a month, shaped like gw's own:
// 20 sessions at a time of about 27 calls each, one call in ten with no session, the oldest
// BENCH_SESSION_OLDER rows written as before the session facet: a session in the line, none in
// the facets), then times the list of the last 7 days and one session's calls, the way gw read
// them before migration 0004 (a substring test on every line) and the way it reads them now
// (dist/postgres/postgres-trail-reader.js), once each, and prints the plans of the new reads.
//
// Env: BENCH_SESSION_ROWS (1000000), BENCH_SESSION_OLDER (10000). Run `npx tsc` first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres } from '../scripts/database-servers.mjs';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = (file) => import(path.join(projectRoot, 'dist', file));
const { migrate } = await load('postgres/migrations.js');
const { createPostgresTrailReader } = await load('postgres/postgres-trail-reader.js');
const { toSummary } = await load('admin/trail-reader.js');
const { summarizeSessions } = await load('admin/session-list.js');
const { sessionCallsOf } = await load('admin/session-calls.js');
const rows = Number(process.env.BENCH_SESSION_ROWS ?? 1_000_000);
const older = Number(process.env.BENCH_SESSION_OLDER ?? 10_000);
const log = (text) => process.stderr.write(`${text}\n`);

const postgres = await startPostgres();
const database = new pg.Pool({ connectionString: await postgres.createDatabase('sessions'), max: 4 });
try {
  await migrate(database);
  const chain = '00000000-0000-0000-0000-00000000b0b1';
  await database.query(`INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash) VALUES ($1, 'bench', now(), 0, 'x')`, [chain]);
  const step = (30 * 86_400_000) / rows;
  for (let from = 1; from <= rows; from += 250_000) {
    const to = Math.min(rows, from + 250_000 - 1);
    await database.query(`INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line, facets)
      SELECT $1, n, made.ts, 'request',
             replace(replace(json_build_object('v', 1, 'seq', n, 'ts', to_char(made.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'kind', 'request', 'request_id', made.request_id, 'origin', '10.0.0.1',
               'team', made.team, 'person', made.person, 'route', '/v1/messages', 'family', 'anthropic', 'operation', 'messages', 'model', 'claude-sonnet-4-5', 'provider', 'anthropic',
               'status', 200, 'latency_ms', n % 3000, 'tokens', json_build_object('input', n % 5000, 'output', n % 800), 'outcome', json_build_array('ok'),
               'cost', json_build_object('nano_usd', n % 100000), 'session', made.session, 'agent', 'claude-code/2.1.197',
               'prev', md5(n::text) || md5((n + 1)::text), 'hash', md5((n + 2)::text) || md5((n + 3)::text))::text, '" : ', '":'), ', "', ',"'),
             jsonb_strip_nulls(jsonb_build_object('request_id', made.request_id, 'person', made.person, 'team', made.team, 'model', 'claude-sonnet-4-5', 'provider', 'anthropic',
               'status', '200', 'status_class', '2xx', 'input', n % 5000, 'output', n % 800, 'cost_nano_usd', n % 100000, 'latency_ms', n % 3000, 'operation', 'messages',
               'session', CASE WHEN n > $4 THEN NULL ELSE made.session END))
        FROM generate_series($2::bigint, $3::bigint) AS n,
        LATERAL (SELECT now() - (n * $5::double precision * interval '1 millisecond') AS ts, 'req_' || md5(n::text) AS request_id,
                        CASE WHEN n % 10 = 0 THEN NULL ELSE 'ses-' || (n / 600) || '-' || (n % 20) END AS session,
                        'person' || (((n / 600) * 20 + n % 20) % 2000) || '@example.com' AS person, 'team-' || (((n / 600) * 20 + n % 20) % 50) AS team) AS made`,
      [chain, from, to, rows - older, step]);
    log(`sessions bench: ${to.toLocaleString('en')} rows`);
  }
  // json_build_object writes null for a call with no session; gw leaves the field out.
  await database.query(`UPDATE gw_audit_records SET line = replace(line, ',"session":null', '') WHERE strpos(line, '"session":null') > 0`);
  await database.query('VACUUM ANALYZE gw_audit_records');
  const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
  const one = 'ses-100-7'; // a session of the first day: about 27 calls
  const time = async (name, run) => {
    const begun = process.hrtime.bigint();
    const size = await run();
    const ms = Number(process.hrtime.bigint() - begun) / 1e6;
    return { read: name, found: size, ms: Number(ms.toFixed(0)) };
  };
  const summaries = (result) => result.rows.map((row) => toSummary(row.line)).filter((summary) => summary !== null);
  const results = [];
  let listed;
  results.push(await time('before: list, last 7 days', async () => (listed = summarizeSessions(summaries(await database.query(
    `SELECT line FROM gw_audit_records WHERE kind = 'request' AND ts >= $1::timestamptz AND strpos(line, '"session":"') > 0 ORDER BY ts DESC LIMIT 200000`, [since])), { since }, 100)).length));
  results.push(await time('before: one session', async () => sessionCallsOf(summaries(await database.query(
    `SELECT line FROM gw_audit_records WHERE kind = 'request' AND strpos(line, $1) > 0 ORDER BY ts, chain_id, seq`, [`"session":${JSON.stringify(one)}`])), one).length));
  const reader = createPostgresTrailReader(database);
  results.push(await time('after: list, last 7 days', async () => {
    const now = await reader.sessions({ since }, 100);
    if (JSON.stringify(now) !== JSON.stringify(listed)) throw new Error('the list read through the index differs from the one summed from every line');
    return now.length;
  }));
  results.push(await time('after: one session', async () => (await reader.session(one)).length));
  results.push(await time('after: one older session (no facet)', async () => (await reader.session(`ses-${Math.floor((rows - 5) / 600)}-${(rows - 5) % 20}`)).length));
  const explain = async (sql, params) => (await database.query(`EXPLAIN ANALYZE ${sql}`, params)).rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n');
  log(`one session:\n${await explain(`SELECT line, ts, chain_id, seq FROM gw_audit_records WHERE kind = 'request' AND facets ? 'session' AND facets->>'session' = $1
     UNION ALL SELECT line, ts, chain_id, seq FROM gw_audit_records WHERE kind = 'request' AND NOT (facets ? 'session') AND strpos(line, '"session":"') > 0 AND strpos(line, $2) > 0
     ORDER BY ts, chain_id, seq`, [one, `"session":${JSON.stringify(one)}`])}`);
  log(`the list's first ranking:\n${await explain(`WITH newest AS (SELECT facets->>'session' AS session, ts FROM gw_audit_records WHERE kind = 'request' AND ts >= $1::timestamptz AND facets ? 'session' ORDER BY ts DESC LIMIT 16384) SELECT session, max(ts) FROM newest GROUP BY 1 ORDER BY 2 DESC, 1`, [since])}`);
  console.log(`\nSession view on PostgreSQL, ${rows.toLocaleString('en')} request records over 30 days (${older.toLocaleString('en')} older rows without the session facet), one run each`);
  console.table(results);
} finally {
  await database.end();
  await postgres.destroy();
}
