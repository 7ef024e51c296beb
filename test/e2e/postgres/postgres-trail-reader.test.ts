// The console's explorer on the PostgreSQL trail (a real server): records written by the real
// trail writer are found by every filter exactly as the in-memory matcher finds them in the
// lines, usage sums in SQL equal the sums over the lines, and each filter is served by its
// index (the plan names it), which is what keeps a search under a second at 10 million rows
// (bench/explorer.mjs measures that).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/postgres/database.js';
import { migrate, readMigrations } from '../../../src/postgres/migrations.js';
import { facetsAgree } from '../../../src/postgres/request-facets.js';
import { openPostgresAuditTrail } from '../../../src/postgres/postgres-audit-trail.js';
import { createPostgresTrailReader } from '../../../src/postgres/postgres-trail-reader.js';
import { matches, summarizeProviderHealth, summarizeUsage, toSummary, type RequestFilter, type RequestSummary, type TrailReader } from '../../../src/admin/trail-reader.js';
import { summarizeCacheUsage } from '../../../src/admin/summarize-cache-usage.js';
import { loadOrCreateSigningKey } from '../../../src/audit/signing-key.js';
import { makeHome } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';

let postgres: PostgresServer;
let database: Database;
let reader: TrailReader;
/** Every request record written, newest first, as the reader should see them. */
let written: RequestSummary[];

const people = ['ana@example.com', 'bo@example.com', 'cy@example.com'];
const models = ['gpt-4.1', 'claude-sonnet-4', 'gemini-2.5-pro'];
const statuses = [200, 200, 200, 429, 502];
const START = Date.parse('2026-11-01T00:00:00Z');

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase();
  database = openDatabase(url);
  await migrate(database);
  let clock = START;
  const trail = await openPostgresAuditTrail({ database, signingKey: await loadOrCreateSigningKey(await makeHome('gw-explorer-')), now: () => new Date(clock) });
  for (let index = 0; index < 240; index += 1) {
    clock = START + index * 3_600_000; // an hour apart: ten days, distinct times
    if (index % 40 === 0) await trail.append({ kind: 'gateway.start', data: { note: 'not a request' } });
    await trail.append({
      kind: 'request', request_id: `req_${index}`, person: people[index % 3], team: index % 2 ? 'web' : 'data', key_id: `vk_${index % 4}`,
      model: models[index % 3], provider: index % 5 ? 'openai' : 'anthropic', status: statuses[index % 5], latency_ms: (index * 37) % 1000,
      tokens: { input: index, output: 2 * index }, ...(index % 4 ? { cost: { nano_usd: 1_000 * index + 7 } } : { cost: { price: 'unknown' } }), ...(index % 7 === 0 ? { dlp: { 'aws-key': 1, email: index % 3 } } : {}),
    });
    // A sidecar's checkpoint push a minute later: a request record, found by the explorer, but not usage.
    if (index % 30 === 5) {
      clock += 60_000;
      await trail.append({ kind: 'request', request_id: `push_${index}`, person: people[index % 3], team: 'web', operation: 'hub.witness.push', status: 200, latency_ms: 1 });
    }
  }
  await trail.close();
  reader = createPostgresTrailReader(database);
  const rows = await database.query<{ line: string }>("SELECT line FROM gw_audit_records WHERE kind = 'request' ORDER BY ts DESC");
  written = rows.rows.map((row) => toSummary(row.line)!);
  expect(written).toHaveLength(248);
}, 60_000);

afterAll(async () => {
  await database?.end();
  await postgres?.destroy();
});

const ids = (summaries: RequestSummary[]) => summaries.map((summary) => summary.request_id);

describe('search', () => {
  const filters: RequestFilter[] = [
    {}, { person: 'bo@example.com' }, { team: 'web' }, { key_id: 'vk_3' }, { model: 'gemini-2.5-pro' }, { provider: 'anthropic' },
    { request_id: 'req_17' }, { status: '429' }, { status: '5xx' }, { status: '2xx', person: 'ana@example.com' },
    { since: '2026-11-05', until: '2026-11-06T12:00:00Z' }, { person: 'cy@example.com', model: 'gpt-4.1', since: '2026-11-03' },
    { person: 'nobody@example.com' },
    // The explorer's default: the checkpoint pushes (control plane) left out in SQL, not after the limit.
    { plane: 'data' }, { plane: 'data', team: 'web' }, { plane: 'control' },
  ];
  it.each(filters.map((filter) => [JSON.stringify(filter), filter] as const))('%s finds what the matcher finds in the lines, newest first', async (_name, filter) => {
    const expected = written.filter((summary) => matches(summary, filter)).slice(0, 50);
    expect(ids(await reader.search(filter, 50))).toEqual(ids(expected));
  });

  it('a time that is not one is a usage error naming the field', async () => {
    await expect(reader.search({ since: 'yesterday-ish' }, 10)).rejects.toThrow(/since must be a time/);
  });
});

describe('usage', () => {
  it.each(['team', 'person', 'model', 'provider', 'key_id', 'day'] as const)('by %s sums in SQL what the lines add up to', async (by) => {
    const since = '2026-11-03T00:00:00.000Z';
    const expected = summarizeUsage([...written].reverse(), by, since);
    const report = await reader.usage(by, since);
    expect(report.groups).toEqual(expected.groups);
    expect(report.daily).toEqual(expected.daily);
    expect(report.groups.reduce((sum, group) => sum + group.dlp_hits, 0)).toBeGreaterThan(0);
    expect(report.groups.reduce((sum, group) => sum + group.cost_nano_usd, 0)).toBeGreaterThan(0);
  });

  it.each(['team', 'model', 'key_id'] as const)('by %s counts unpriced calls (and names their models) as the lines do, in a window with an excluded end', async (by) => {
    const [since, until] = ['2026-11-02T00:00:00.000Z', '2026-11-07T05:00:00.000Z'];
    const expected = summarizeUsage([...written].reverse(), by, since, until);
    const report = await reader.usage(by, since, until);
    expect(report).toEqual(expected);
    // Every fourth record was written with { price: 'unknown' }: counted, never summed as 0.
    const lines = written.filter((summary) => summary.ts >= since && summary.ts < until && (summary.cost as { price?: string } | undefined)?.price === 'unknown');
    expect(lines.length).toBeGreaterThan(10);
    expect(report.groups.reduce((sum, group) => sum + group.unpriced, 0)).toBe(lines.length);
    expect(report.daily.reduce((sum, cell) => sum + cell.unpriced, 0)).toBe(lines.length);
    expect(report.unpriced_models.reduce((sum, model) => sum + model.calls, 0)).toBe(lines.length);
    expect(report.unpriced_models.map((model) => `${model.provider}/${model.model}`).sort()).toEqual([...new Set(lines.map((summary) => `${summary.provider}/${summary.model}`))].sort());
    // The record at the window's end is outside it, as gw usage --until leaves it out.
    expect(written.some((summary) => summary.ts === until)).toBe(true);
    expect(report.until).toBe(until);
  });
});

describe('usage in a time zone (days read there, src/spend/usage-day.ts)', () => {
  // The records run an hour apart from 2026-11-01T00:00Z: Los Angeles left summer time that
  // morning (02:00 PDT = 09:00Z), so its 2026-11-01 is 25 hours long; Kolkata is 5:30 ahead.
  it.each([['America/Los_Angeles', 'day'], ['America/Los_Angeles', 'team'], ['Asia/Kolkata', 'day'], ['UTC', 'day']] as const)('%s by %s: SQL days equal the lines\' days', async (tz, by) => {
    const expected = summarizeUsage([...written].reverse(), by, undefined, undefined, tz);
    const report = await reader.usage(by, undefined, undefined, tz);
    expect(report).toEqual(expected);
    expect(report.tz).toBe(tz);
    const cache = await reader.cacheUsage(by, undefined, undefined, tz);
    expect(cache).toEqual(summarizeCacheUsage([...written].reverse(), by, undefined, undefined, tz));
  });

  it('a UTC morning is the day before in Los Angeles, and the day clocks go back has 25 hours', async () => {
    const report = await reader.usage('day', undefined, undefined, 'America/Los_Angeles');
    const calls = (day: string) => report.groups.find((group) => group.group === day)?.requests;
    // 00:00Z-06:00Z on 2026-11-01 are 17:00-23:00 PDT on 2026-10-31 (one checkpoint push is control plane, not usage).
    expect(calls('2026-10-31')).toBe(7);
    expect(calls('2026-11-01')).toBe(25);
    expect(calls('2026-11-02')).toBe(24);
    const utc = await reader.usage('day');
    expect(utc.groups.find((group) => group.group === '2026-10-31')).toBeUndefined();
    expect(utc.groups.find((group) => group.group === '2026-11-01')?.requests).toBe(24);
  });
});

describe('provider health', () => {
  it.each(['2026-11-01T00:00:00.000Z', '2026-11-08T12:00:00.000Z', '2026-12-01T00:00:00.000Z'])('since %s: counts, errors and latency percentiles in SQL equal the lines\'', async (since) => {
    const expected = summarizeProviderHealth(written, since);
    expect(await reader.providerHealth(since)).toEqual(expected);
    if (since < '2026-11-09') {
      expect(expected.map((row) => row.provider).sort()).toEqual(['anthropic', 'openai']);
      expect(expected.some((row) => row.errors > 0)).toBe(true);
      expect(expected.every((row) => row.p95_ms! > row.p50_ms!)).toBe(true);
    } else {
      expect(expected).toEqual([]);
    }
  });
});

describe('indexes', () => {
  beforeAll(async () => {
    // Enough rows that the planner's choice is the one it makes on a real trail.
    await database.query(`INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash) VALUES ('00000000-0000-0000-0000-0000000000aa', 'bulk', now(), 0, 'x')`);
    await database.query(`INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line, facets)
      SELECT '00000000-0000-0000-0000-0000000000aa', n, now() - n * interval '1 second', 'request', record::text, record - 'kind' || jsonb_build_object('status_class', left(record->>'status', 1) || 'xx')
        FROM generate_series(1, 30000) AS n,
        LATERAL (SELECT jsonb_build_object('kind', 'request', 'request_id', 'bulk_' || n, 'person', 'p' || (n % 500) || '@example.com', 'team', CASE WHEN n % 1000 = 0 THEN 'rare' ELSE 't' || (n % 20) END,
                   'key_id', 'vk_b' || (n % 300), 'model', 'm' || (n % 30), 'provider', 'pr' || (n % 8), 'status', CASE WHEN n % 1000 = 1 THEN '503' ELSE (200 + (n % 3) * 100)::text END) AS record) AS made`);
    await database.query('ANALYZE gw_audit_records');
  }, 60_000);

  const plans: Array<[string, RequestFilter, string]> = [
    ['newest first', {}, 'gw_audit_requests_ts'],
    ['a request id', { request_id: 'bulk_77' }, 'gw_audit_requests_id'],
    ['a person', { person: 'p7@example.com' }, 'gw_audit_requests_person'],
    ['a small team', { team: 'rare' }, 'gw_audit_requests_team'],
    ['a key', { key_id: 'vk_b9' }, 'gw_audit_requests_key'],
    ['a model', { model: 'm4' }, 'gw_audit_requests_model'],
    ['a rare status', { status: '503' }, 'gw_audit_requests_status'],
    ['a rare status class', { status: '5xx' }, 'gw_audit_requests_status_class'],
  ];
  // A value a twentieth of the rows have is found sooner by walking the time index backwards:
  // the planner may take either index, but never reads the whole table.
  const common: RequestFilter[] = [{ team: 't3' }, { status: '4xx' }, { provider: 'pr2', status: '200' }, { since: '2026-01-01', person: 'p1@example.com' }];
  it.each(common.map((filter) => [JSON.stringify(filter), filter] as const))('%s reads no whole table', async (_name, filter) => {
    const { requestWhere } = await import('../../../src/postgres/postgres-trail-reader.js');
    const where = requestWhere(filter);
    const plan = JSON.stringify((await database.query(`EXPLAIN (FORMAT JSON) SELECT line FROM gw_audit_records WHERE ${where.sql} ORDER BY ts DESC LIMIT 100`, where.params)).rows[0]);
    expect(plan).toContain('"Index Name":"gw_audit_requests_');
    expect(plan).not.toContain('Seq Scan');
  });
  it.each(plans)('%s is served by its index', async (_name, filter, index) => {
    const { requestWhere } = await import('../../../src/postgres/postgres-trail-reader.js');
    const where = requestWhere(filter);
    const plan = await database.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT line FROM gw_audit_records WHERE ${where.sql} ORDER BY ts DESC LIMIT 100`, where.params);
    expect(JSON.stringify(plan.rows[0]!['QUERY PLAN'])).toContain(`"Index Name":"${index}"`);
  });
});

describe('migration 0002 on a trail written before it', () => {
  it('fills each old request row with the facets the writer would have stored', async () => {
    const url = await postgres.createDatabase();
    const old = openDatabase(url);
    try {
      const [first] = await readMigrations();
      await migrate(old, [first!]);
      await old.query(`INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash) VALUES ('00000000-0000-0000-0000-0000000000bb', 'old', now(), 0, 'x')`);
      const records = [
        { kind: 'request', request_id: 'r1', person: 'ana@example.com', team: 'web', key_id: 'vk_1', model: 'gpt-4.1', provider: 'openai', status: 200, tokens: { input: 3, output: 4 }, cost: { nano_usd: 1200 }, dlp: { email: 2, 'aws-key': 1 } },
        { kind: 'request', request_id: 'r2', team: 'web', key_id: 'vk_2', status: 429, dlp: { email: 0 } },
        { kind: 'request', request_id: 'r3', status: 502, tokens: { input: 0 } },
        { kind: 'gateway.start', data: { note: 'not a request' } },
      ];
      for (const [index, record] of records.entries()) {
        await old.query(`INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line) VALUES ('00000000-0000-0000-0000-0000000000bb', $1, now(), $2, $3)`,
          [index + 1, record.kind, JSON.stringify({ v: 1, seq: index + 1, ...record })]);
      }
      await migrate(old);
      const rows = await old.query<{ line: string; facets: unknown }>('SELECT line, facets FROM gw_audit_records ORDER BY seq');
      expect(rows.rows).toHaveLength(4);
      for (const row of rows.rows) expect({ line: row.line, agrees: facetsAgree(row.line, row.facets) }).toEqual({ line: row.line, agrees: true });
      expect(rows.rows[0]!.facets).toMatchObject({ person: 'ana@example.com', status_class: '2xx', dlp_hits: 3, cost_nano_usd: 1200 });
    } finally {
      await old.end();
    }
  });
});
