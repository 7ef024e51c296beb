// A session read back from the PostgreSQL trail (a real server): records written by the real
// PostgreSQL trail writer, two of them with the same time, one of another session between
// them; `gw audit show --session ID --store URL` lists the session's calls in trail order,
// and `gw usage --by session --store URL` sums them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/postgres/database.js';
import { migrate } from '../../../src/postgres/migrations.js';
import { openPostgresAuditTrail } from '../../../src/postgres/postgres-audit-trail.js';
import { loadOrCreateSigningKey } from '../../../src/audit/signing-key.js';
import { makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';

let postgres: PostgresServer;
let database: Database;
let url: string;
const START = Date.parse('2026-11-20T09:00:00Z');

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase();
  database = openDatabase(url);
  await migrate(database);
  let clock = START;
  const trail = await openPostgresAuditTrail({ database, signingKey: await loadOrCreateSigningKey(await makeHome('gw-session-store-')), now: () => new Date(clock) });
  const model = (id: string, session: string, input: number, nanos: number) => trail.append({
    kind: 'request', request_id: id, team: 'eng', route: '/v1/messages', family: 'anthropic', operation: 'messages', model: 'claude-sonnet-4-5', status: 200,
    tokens: { input, output: 10 }, cost: { nano_usd: nanos, price: 'dataset' }, outcome: ['ok'], session, agent: 'claude-code/2.1.197',
  });
  await model('req_1', 'run-a', 100, 1_000);
  clock += 1_000;
  await model('req_other', 'run-b', 5, 50);
  await trail.append({
    kind: 'request', request_id: 'req_2', team: 'eng', route: '/mcp', family: 'operational', operation: 'mcp', status: 200, outcome: ['ok'],
    data: { mcp: { method: 'tools/call', server: 'notes', tool: 'echo', status: 'tool_error', duration_ms: 3 } }, session: 'run-a', agent: 'claude-code/2.1.197',
  });
  clock += 1_000;
  await model('req_3', 'run-a', 200, 2_000);
  await trail.close();
}, 60_000);

afterAll(async () => {
  await database?.end();
  await postgres?.destroy();
});

it('gw audit show --session --store: the session\'s calls in trail order, a tool error in its outcome', async () => {
  const home = await makeHome('gw-session-cli-');
  const shown = await runGw(['audit', 'show', '--session', 'run-a', '--store', url, '--json'], { home });
  expect(shown.code, shown.stderr).toBe(0);
  const { calls } = JSON.parse(shown.stdout) as { calls: Array<{ request_id: string; operation: string; target: string; outcome: string[]; cost_nano_usd: number | null }> };
  expect(calls.map((call) => [call.request_id, call.operation, call.target])).toEqual([
    ['req_1', 'messages', 'claude-sonnet-4-5'], ['req_2', 'mcp tools/call', 'notes/echo'], ['req_3', 'messages', 'claude-sonnet-4-5'],
  ]);
  expect(calls[1]!.outcome).toEqual(['ok', 'tool_error']);
  expect(calls.map((call) => call.cost_nano_usd)).toEqual([1_000, null, 2_000]);

  const usage = await runGw(['usage', '--by', 'session', '--since', '2026-11-01', '--store', url, '--json'], { home });
  expect(usage.code, usage.stderr).toBe(0);
  const rows = (JSON.parse(usage.stdout) as { rows: Array<{ group: string; calls: number; input_tokens: number; cost_nano_usd: number }> }).rows;
  expect(rows.find((row) => row.group === 'run-a')).toMatchObject({ calls: 3, input_tokens: 300, cost_nano_usd: 3_000 });
  expect(rows.find((row) => row.group === 'run-b')).toMatchObject({ calls: 1, input_tokens: 5, cost_nano_usd: 50 });
}, 60_000);
