// The prompt-cache report on the PostgreSQL trail (a real server): the sums in SQL over the sealed
// lines equal the file trail's sums over the same records, for every grouping (team, session…),
// misses (negative savings) and cache breaks included, and the admin usage report's groups get them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/postgres/database.js';
import { migrate } from '../../../src/postgres/migrations.js';
import { openPostgresAuditTrail } from '../../../src/postgres/postgres-audit-trail.js';
import { createPostgresTrailReader } from '../../../src/postgres/postgres-trail-reader.js';
import { toSummary, type RequestSummary, type TrailReader } from '../../../src/admin/trail-reader.js';
import { CACHE_GROUPINGS, summarizeCacheUsage } from '../../../src/admin/summarize-cache-usage.js';
import { facetsAgree } from '../../../src/postgres/request-facets.js';
import { loadOrCreateSigningKey } from '../../../src/audit/signing-key.js';
import { makeHome } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';

let postgres: PostgresServer;
let database: Database;
let reader: TrailReader;
let written: RequestSummary[];
const START = Date.parse('2026-11-01T00:00:00Z');

beforeAll(async () => {
  postgres = await startPostgres();
  database = openDatabase(await postgres.createDatabase());
  await migrate(database);
  let clock = START;
  const trail = await openPostgresAuditTrail({ database, signingKey: await loadOrCreateSigningKey(await makeHome('gw-cache-pg-')), now: () => new Date(clock) });
  for (let index = 0; index < 120; index += 1) {
    clock = START + index * 3_600_000;
    const read = index % 3 === 0 ? 0 : 100 * index;
    const write = index % 4 === 0 ? 50 * index : 0;
    await trail.append({
      kind: 'request', request_id: `req_${index}`, team: index % 2 ? 'web' : 'data', person: `p${index % 3}@example.com`, key_id: `vk_${index % 4}`,
      model: 'claude-sonnet-4-5', provider: index % 5 ? 'anthropic' : 'openai', status: 200, ...(index % 6 ? { session: `sess-${index % 5}` } : {}),
      tokens: { input: 200 * index + read + write, output: 10, cached_read: read, cache_write: write },
      cost: { nano_usd: 1_000 + index, price: 'dataset', ...(read + write > 0 ? { cache_saved_nano_usd: read * 2_700 - write * 750 } : {}) },
      outcome: index % 17 === 3 ? ['ok', 'cache_break'] : ['ok'],
    });
    // A hub's own checkpoint push: not usage.
    if (index % 30 === 5) await trail.append({ kind: 'request', request_id: `push_${index}`, team: 'web', operation: 'hub.witness.push', status: 200, tokens: { input: 5, cached_read: 5 } });
  }
  await trail.close();
  reader = createPostgresTrailReader(database);
  written = (await database.query<{ line: string }>("SELECT line FROM gw_audit_records WHERE kind = 'request'")).rows.map((row) => toSummary(row.line)!);
}, 60_000);

afterAll(async () => {
  await database?.end();
  await postgres?.destroy();
});

describe('cacheUsage on PostgreSQL equals the file trail\'s', () => {
  it.each(CACHE_GROUPINGS)('by %s', async (by) => {
    expect(await reader.cacheUsage(by)).toEqual(summarizeCacheUsage(written, by));
  });

  it('since bounds the window; a miss streak shows as a negative saving', async () => {
    const since = new Date(START + 60 * 3_600_000).toISOString();
    const rows = await reader.cacheUsage('session', since);
    expect(rows).toEqual(summarizeCacheUsage(written, 'session', since));
    const all = await reader.cacheUsage('team');
    expect(all.reduce((sum, row) => sum + row.cache_breaks, 0)).toBe(written.filter((line) => line.outcome?.includes('cache_break')).length);
    // Record 12 wrote 600 tokens and read none: −450,000 nano-USD.
    expect((await reader.search({ request_id: 'req_12' }, 1))[0]!.cost).toMatchObject({ cache_saved_nano_usd: -450_000 });
  });
});

describe('the cache facets', () => {
  it('are summed, not parsed from lines; a row stored before them still verifies, an edited one does not', async () => {
    const row = (await database.query<{ line: string; facets: Record<string, unknown> }>("SELECT line, facets FROM gw_audit_records WHERE facets->>'request_id' = 'req_12'")).rows[0]!;
    expect(row.facets).toMatchObject({ cache_read: 0, cache_write: 600, cache_saved_nano_usd: -450_000 });
    const { cache_read: _read, cache_write: _write, cache_saved_nano_usd: _saved, ...before } = row.facets;
    expect(facetsAgree(row.line, before)).toBe(true);
    expect(facetsAgree(row.line, { ...row.facets, cache_saved_nano_usd: 1 })).toBe(false);
    expect(facetsAgree(row.line, { ...row.facets, cache_break: 1 })).toBe(false);
  });
});
