// `npm run bench:explorer`: the console's request explorer on PostgreSQL at scale. Fills a fresh
// database with BENCH_EXPLORER_ROWS request records (10,000,000 by default; about 8 GB and
// 15–30 minutes on 2 cores) shaped like gw's own, then times each explorer filter (the same
// SQL the admin API runs, from dist/postgres/postgres-trail-reader.js) and prints medians.
// The target (issue 18): every search under 1 s.
//
// Env: BENCH_EXPLORER_ROWS (10000000), BENCH_EXPLORER_RUNS (5), BENCH_EXPLORER_EXPLAIN (1 prints each plan).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres } from '../scripts/database-servers.mjs';
import { median } from './lib/report.mjs';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { migrate } = await import(path.join(projectRoot, 'dist/postgres/migrations.js'));
const { createPostgresTrailReader, requestWhere } = await import(path.join(projectRoot, 'dist/postgres/postgres-trail-reader.js'));
const rows = Number(process.env.BENCH_EXPLORER_ROWS ?? 10_000_000);
const runs = Number(process.env.BENCH_EXPLORER_RUNS ?? 5);
const log = (text) => process.stderr.write(`${text}\n`);

const postgres = await startPostgres();
const database = new pg.Pool({ connectionString: await postgres.createDatabase('explorer'), max: 4 });
try {
  await migrate(database);
  const chain = '00000000-0000-0000-0000-00000000b0b0';
  await database.query(`INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash) VALUES ($1, 'bench', now(), 0, 'x')`, [chain]);
  const started = Date.now();
  const batch = 500_000;
  for (let from = 1; from <= rows; from += batch) {
    const to = Math.min(rows, from + batch - 1);
    // A month of calls from 2,000 people in 50 teams on 40 models; about 600 bytes a line, like gw's.
    // The facets column is what gw's writer stores beside each line (src/postgres/request-facets.ts).
    await database.query(`INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line, facets)
      SELECT $1, n, made.ts, 'request',
             -- compact, as gw writes it (json_build_object puts spaces around its colons)
             replace(replace(json_build_object('v', 1, 'seq', n, 'ts', to_char(made.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'kind', 'request', 'request_id', made.request_id, 'origin', '10.0.0.1',
               'team', made.team, 'key_id', made.key_id, 'person', made.person,
               'route', '/v1/chat/completions', 'family', 'openai', 'operation', 'chat', 'model', made.model, 'provider', made.provider,
               'status', made.status, 'latency_ms', made.latency, 'bytes_in', 2000, 'bytes_out', 900,
               'tokens', json_build_object('input', made.input, 'output', made.output), 'outcome', json_build_array('ok'),
               'cost', json_build_object('nano_usd', made.cost), 'prev', md5(n::text) || md5((n + 1)::text), 'hash', md5((n + 2)::text) || md5((n + 3)::text))::text, '" : ', '":'), ', "', ',"'),
             jsonb_build_object('request_id', made.request_id, 'person', made.person, 'team', made.team, 'key_id', made.key_id, 'model', made.model,
               'provider', made.provider, 'status', made.status::text, 'status_class', left(made.status::text, 1) || 'xx',
               'input', made.input, 'output', made.output, 'cost_nano_usd', made.cost, 'latency_ms', made.latency)
        FROM generate_series($2::bigint, $3::bigint) AS n,
        LATERAL (SELECT now() - (n * interval '250 milliseconds') AS ts, 'req_' || md5(n::text) AS request_id, 'team-' || (n % 50) AS team, 'vk_' || (n % 3000) AS key_id,
                        'person' || (n % 2000) || '@example.com' AS person, 'model-' || (n % 40) AS model, 'provider-' || (n % 6) AS provider,
                        CASE WHEN n % 50 = 0 THEN 429 WHEN n % 97 = 0 THEN 502 ELSE 200 END AS status,
                        n % 5000 AS input, n % 800 AS output, n % 100000 AS cost, n % 3000 AS latency) AS made`, [chain, from, to]);
    log(`explorer bench: ${to.toLocaleString('en')} rows (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  await database.query('ANALYZE gw_audit_records');
  const reader = createPostgresTrailReader(database);
  const searches = [
    ['newest 100', {}],
    ['one request id', { request_id: 'req_' + 'c4ca4238a0b923820dcc509a6f75849b' }],
    ['one person', { person: 'person7@example.com' }],
    ['one team', { team: 'team-3' }],
    ['one key', { key_id: 'vk_42' }],
    ['one model', { model: 'model-9' }],
    ['one provider, 5xx', { provider: 'provider-2', status: '5xx' }],
    ['status 429', { status: '429' }],
    ['one person, one model, last week', { person: 'person7@example.com', model: 'model-7', since: new Date(Date.now() - 7 * 86_400_000).toISOString() }],
    ['a day, 2 days ago', { since: new Date(Date.now() - 3 * 86_400_000).toISOString(), until: new Date(Date.now() - 2 * 86_400_000).toISOString() }],
  ];
  const results = [];
  for (const [name, filter] of searches) {
    const times = [];
    let found = 0;
    for (let run = 0; run < runs; run += 1) {
      const begun = process.hrtime.bigint();
      found = (await reader.search(filter, 100)).length;
      times.push(Number(process.hrtime.bigint() - begun) / 1e6);
    }
    results.push({ search: name, found, median_ms: Number(median(times).toFixed(1)) });
    if (process.env.BENCH_EXPLORER_EXPLAIN === '1') {
      const where = requestWhere(filter);
      const plan = await database.query(`EXPLAIN ANALYZE SELECT line FROM gw_audit_records WHERE ${where.sql} ORDER BY ts DESC LIMIT 100`, where.params);
      log(`${name}:\n${plan.rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
    }
  }
  // The Usage and Providers pages: sums over every row in the window (no target in the issue; reported as measured).
  const ago = (ms) => new Date(Date.now() - ms).toISOString();
  const sums = [
    ['usage by team, last day', () => reader.usage('team', ago(86_400_000)), (report) => report.groups.length],
    ['usage by person, last 7 days', () => reader.usage('person', ago(7 * 86_400_000)), (report) => report.groups.length],
    ['provider health, last hour', () => reader.providerHealth(ago(3_600_000)), (report) => report.length],
    ['provider health, last day', () => reader.providerHealth(ago(86_400_000)), (report) => report.length],
  ];
  const summed = [];
  for (const [name, run, size] of sums) {
    const times = [];
    let groups = 0;
    for (let index = 0; index < Math.min(runs, 3); index += 1) {
      const begun = process.hrtime.bigint();
      groups = size(await run());
      times.push(Number(process.hrtime.bigint() - begun) / 1e6);
    }
    summed.push({ sum: name, groups, median_ms: Number(median(times).toFixed(1)) });
  }
  console.log(`\nExplorer on PostgreSQL, ${rows.toLocaleString('en')} request records, median of ${runs} (target: under 1000 ms each)`);
  console.table(results);
  const slowest = Math.max(...results.map((result) => result.median_ms));
  console.log(`slowest: ${slowest} ms ${slowest < 1000 ? '(within target)' : '(OVER TARGET)'}`);
  console.log('\nUsage and provider health: sums in SQL over every request row of the window (4 calls a second in this fill)');
  console.table(summed);
} finally {
  await database.end();
  await postgres.destroy();
}
