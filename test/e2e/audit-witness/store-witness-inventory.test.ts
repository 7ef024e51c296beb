// `gw audit verify --store URL --witness W` against the witness's inventory, on a real
// PostgreSQL with real instances (issue 27): each instance pushes its chains under its
// home's instance id; a restart under the same key opens a new chain and passes; an
// instance whose key was deleted and made again (a reinstall without gw audit rotate) leaves
// a chain that stopped unclosed followed by one under a new key, which fails; a chain cut
// short in the store and re-signed with the instance's own key fails too.
import { copyFile, readFile, rm } from 'node:fs/promises';
import { createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signCheckpointWithKey, type SignedCheckpoint } from '../../../src/audit/checkpoint.js';
import { makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { GatewayJar } from '../helpers.js';

let postgres: PostgresServer;
let store: string;
let witness: string;
let apiKey: string;
const jar = new GatewayJar();
const homes: string[] = [];
const oldKeys: string[] = [];

async function withClient<T>(run: (client: import('pg').Client) => Promise<T>): Promise<T> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: store });
  await client.connect();
  try { return await run(client); } finally { await client.end(); }
}

/** One boot of the instance in `home`: a few calls, then a stop; resolves with its chain id. */
async function boot(home: string, calls: number, args: string[] = []): Promise<string> {
  const instance = await jar.start({ home, args: ['--store', store, '--standalone', ...args], env: { GW_LOG_LEVEL: 'warn' } });
  for (let index = 0; index < calls; index += 1) {
    const response = await fetch(`${instance.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    await response.text();
  }
  const pid = instance.child.pid;
  expect(await instance.stop()).toBe(0);
  return withClient(async (client) => (await client.query<{ chain_id: string }>('SELECT chain_id FROM gw_audit_chains WHERE instance LIKE $1', [`%:${pid}`])).rows[0]!.chain_id);
}

const keyArgs = () => [...homes.map((home) => ['--key', path.join(home, 'audit.pub')]), ...oldKeys.map((file) => ['--key', file])].flat();
const verify = async () => runGw(['audit', 'verify', '--store', store, '--witness', witness, ...keyArgs()], { home: await makeHome('gw-auditor-') });

beforeAll(async () => {
  postgres = await startPostgres();
  store = await postgres.createDatabase();
  const admin = { env: { GW_HOME: await makeHome('gw-admin-') } };
  expect((await runGw(['db', 'migrate', '--store', store], admin)).code).toBe(0);
  await runGw(['teams', 'create', 'eng', '--store', store], admin);
  witness = path.join(await makeHome('gw-witness-volume-'), 'witness.jsonl');
  expect((await runGw(['settings', 'set', 'audit_witness', witness, '--store', store], admin)).code).toBe(0);
  const made = await runGw(['keys', 'create', '--team', 'eng', '--name', 'ci', '--store', store], admin);
  apiKey = /sk-gw-\w+/.exec(made.stdout + made.stderr)![0];
  homes.push(await makeHome('gw-instance-a-'), await makeHome('gw-instance-b-'));
  for (const home of homes) await boot(home, 2);
}, 120_000);

afterAll(async () => {
  await jar.stopAll();
  await postgres?.destroy();
});

it('each instance\'s chains are witnessed under its instance id; a restart under the same key opens a chain and verifies', async () => {
  await boot(homes[0]!, 1);
  const lines = (await readFile(witness, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { trail: string; from?: { instance?: string } });
  const ids = await Promise.all(homes.map(async (home) => (await readFile(path.join(home, 'instance-id'), 'utf8')).trim()));
  expect(new Set(lines.map((line) => line.from?.instance))).toEqual(new Set(ids));
  expect(new Set(lines.filter((line) => line.from?.instance === ids[0]).map((line) => line.trail)).size).toBe(2);
  const verified = await verify();
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/3 chains, all intact/);
}, 90_000);

it('an instance whose key was deleted and made again (no gw audit rotate) fails: its chain stopped unclosed and a new key followed', async () => {
  const home = homes[0]!;
  const saved = path.join(await makeHome('gw-old-key-'), 'audit.pub');
  await copyFile(path.join(home, 'audit.pub'), saved);
  oldKeys.push(saved);
  for (const name of ['audit.pub', 'audit-signing.key', 'audit-trust.json']) await rm(path.join(home, name), { force: true });
  await boot(home, 1);
  const verified = await verify();
  expect(verified.code, verified.stdout + verified.stderr).toBe(1);
  expect(verified.stdout).toMatch(/MISMATCH: replaced without closing: instance gwi_\w+'s chain .* stopped at seq \d+ without a closing record, and chain .* began under a new key/);
  expect(verified.stdout.match(/MISMATCH/g)?.length).toBe(1);
}, 90_000);

it('a chain cut short in the store and re-signed with its own key fails: the witness saw it longer', async () => {
  const home = homes[1]!;
  const chain = await withClient(async (client) => (await client.query<{ chain_id: string; checkpoint: SignedCheckpoint }>(
    "SELECT chain_id, checkpoint FROM gw_audit_chains WHERE checkpoint->>'public_key' = $1", [(await readFile(path.join(home, 'audit.pub'), 'utf8')).trim()],
  )).rows[0]!);
  const privateKey = createPrivateKey(await readFile(path.join(home, 'audit-signing.key')));
  await withClient(async (client) => {
    const keep = chain.checkpoint.seq - 2;
    const { rows } = await client.query<{ line: string }>('SELECT line FROM gw_audit_records WHERE chain_id = $1 AND seq = $2', [chain.chain_id, keep]);
    const hash = (JSON.parse(rows[0]!.line) as { hash: string }).hash;
    await client.query('DELETE FROM gw_audit_records WHERE chain_id = $1 AND seq > $2', [chain.chain_id, keep]);
    const checkpoint = signCheckpointWithKey(privateKey, chain.checkpoint.public_key, chain.checkpoint.trail, { seq: keep, hash });
    await client.query('UPDATE gw_audit_chains SET checkpoint = $1, head_seq = $2, head_hash = $3 WHERE chain_id = $4', [JSON.stringify(checkpoint), keep, hash, chain.chain_id]);
  });
  const verified = await verify();
  expect(verified.code).toBe(1);
  expect(verified.stdout).toMatch(new RegExp(`MISMATCH: chain ${chain.chain_id}: truncated or rolled back: the witness holds a checkpoint at seq ${chain.checkpoint.seq} .* the local log ends at seq ${chain.checkpoint.seq - 2}`));
}, 90_000);
