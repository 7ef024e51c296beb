// The console's session view on both trails (issue 29, lineage): the same request records,
// written by the real file trail writer and by the real PostgreSQL trail writer (a real server),
// give the same list of sessions and the same calls of a session from the file reader and the
// PostgreSQL reader, and those calls are what `gw audit show --session --json` prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditTrail, type AuditTrail } from '../../../src/audit/audit-trail.js';
import type { AuditFields } from '../../../src/audit/record.js';
import { loadOrCreateSigningKey } from '../../../src/audit/signing-key.js';
import { createFileTrailReader, type TrailReader } from '../../../src/admin/trail-reader.js';
import { openDatabase, type Database } from '../../../src/postgres/database.js';
import { migrate } from '../../../src/postgres/migrations.js';
import { openPostgresAuditTrail } from '../../../src/postgres/postgres-audit-trail.js';
import { createPostgresTrailReader } from '../../../src/postgres/postgres-trail-reader.js';
import { makeTempHome, type TempHome } from '../../audit/helpers.js';
import { makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';

const START = Date.parse('2026-11-20T09:00:00Z');
let postgres: PostgresServer;
let database: Database;
let home: TempHome;
const readers: Record<'file' | 'postgres', TrailReader> = {} as never;

const model = (id: string, session: string | undefined, input: number, nanos: number | null, extra: Partial<AuditFields> = {}): AuditFields => ({
  kind: 'request', request_id: id, person: 'ana@example.com', team: 'eng', route: '/v1/messages', family: 'anthropic', operation: 'messages',
  model: 'claude-sonnet-4-5', status: 200, latency_ms: 400, tokens: { input, output: 10 }, cost: nanos === null ? { price: 'unknown' } : { nano_usd: nanos, price: 'dataset' },
  outcome: ['ok'], ...(session ? { session } : {}), agent: 'claude-code/2.1.197', ...extra,
});
const mcp = (id: string, session: string, method: string, extra: Record<string, string> = {}): AuditFields => ({
  kind: 'request', request_id: id, person: 'ana@example.com', team: 'eng', route: '/mcp', family: 'operational', operation: 'mcp', status: 200, latency_ms: 5,
  outcome: ['ok'], data: { mcp: { method, ...extra } }, session, agent: 'codex/0.169.0',
});

/** In trail order, one a second; run-b is bo's, on team web, a day earlier. */
const RECORDS: AuditFields[] = [
  { ...model('b_1', 'run-b', 5, 50, { person: 'bo@example.com', team: 'web' }) },
  mcp('a_init', 'run-a', 'initialize'),
  model('a_1', 'run-a', 100, 1_000),
  mcp('a_list', 'run-a', 'tools/list'),
  mcp('a_tool', 'run-a', 'tools/call', { server: 'notes', tool: 'echo', status: 'ok' }),
  model('none', undefined, 7, 70),
  model('a_2', 'run-a', 200, null),
  mcp('a_fail', 'run-a', 'tools/call', { server: 'notes', tool: 'lookup', status: 'tool_error' }),
  model('a_3', 'run-a', 300, 3_000, { status: 429, outcome: ['GW_ERR_RATE_LIMITED'], tokens: undefined, cost: undefined }),
];

beforeAll(async () => {
  postgres = await startPostgres();
  database = openDatabase(await postgres.createDatabase());
  await migrate(database);
  home = await makeTempHome();
  let clock = START;
  const now = () => new Date(clock);
  const fileTrail: AuditTrail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', now });
  const storeTrail = await openPostgresAuditTrail({ database, signingKey: await loadOrCreateSigningKey(await makeHome('gw-session-readers-')), now });
  for (const [index, record] of RECORDS.entries()) {
    clock = START + (index === 0 ? -86_400_000 : index * 1_000);
    await fileTrail.append(record);
    await storeTrail.append(record);
  }
  await fileTrail.close();
  await storeTrail.close();
  readers.file = createFileTrailReader(home.logFile);
  readers.postgres = createPostgresTrailReader(database);
}, 60_000);

afterAll(async () => {
  await database?.end();
  await postgres?.destroy();
  await home?.remove();
});

describe.each(['file', 'postgres'] as const)('the %s trail', (kind) => {
  it('lists the sessions, the most recently active first, with their totals', async () => {
    const sessions = await readers[kind].sessions({ since: '2026-11-01' }, 100);
    expect(sessions.map((row) => row.session)).toEqual(['run-a', 'run-b']);
    expect(sessions[0]).toEqual({
      session: 'run-a', person: 'ana@example.com', team: 'eng', agents: ['claude-code/2.1.197', 'codex/0.169.0'],
      first_ts: new Date(START + 2_000).toISOString(), last_ts: new Date(START + 8_000).toISOString(),
      // a_1, tools/list, tools/call, a_2, the failed tools/call, the 429: the handshake (initialize) is not a call.
      calls: 6, tool_calls: 2, input_tokens: 300, output_tokens: 20, cost_nano_usd: 1_000, unpriced: 1, errors: 2,
    });
    expect(sessions[1]).toMatchObject({ session: 'run-b', person: 'bo@example.com', team: 'web', calls: 1, cost_nano_usd: 50, errors: 0 });
  });

  it('filters by person, team and time', async () => {
    expect((await readers[kind].sessions({ since: '2026-11-01', person: 'bo@example.com' }, 100)).map((row) => row.session)).toEqual(['run-b']);
    expect((await readers[kind].sessions({ since: '2026-11-01', team: 'eng' }, 100)).map((row) => row.session)).toEqual(['run-a']);
    expect((await readers[kind].sessions({ since: new Date(START).toISOString() }, 100)).map((row) => row.session)).toEqual(['run-a']);
    expect(await readers[kind].sessions({ since: '2026-11-01' }, 1)).toHaveLength(1);
  });

  it('gives a session\'s calls in trail order, as gw audit show --session --json prints them', async () => {
    const calls = await readers[kind].session('run-a');
    expect(calls.map((call) => [call.request_id, call.operation, call.target, call.input_tokens, call.cost_nano_usd])).toEqual([
      ['a_1', 'messages', 'claude-sonnet-4-5', 100, 1_000], ['a_list', 'mcp tools/list', null, 0, null], ['a_tool', 'mcp tools/call', 'notes/echo', 0, null],
      ['a_2', 'messages', 'claude-sonnet-4-5', 200, null], ['a_fail', 'mcp tools/call', 'notes/lookup', 0, null], ['a_3', 'messages', 'claude-sonnet-4-5', 0, null],
    ]);
    expect(calls[4]!.outcome).toEqual(['ok', 'tool_error']);
    expect(calls[0]!.latency_ms).toBe(400);
    expect(await readers[kind].session('run-zzz')).toEqual([]);
    const shown = await runGw(['audit', 'show', '--session', 'run-a', '--json', '--file', home.logFile], { home: home.home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({ session: 'run-a', calls });
  });
});
