// The PostgreSQL trail against an insider with the database (issue 27): a chain edited,
// re-hashed and re-signed under a fresh key, its facets rewritten to match, and a whole chain
// deleted, are both failures of `gw audit verify --store` with every instance's key given.
// Before, the first passed with a warning ("no pinned public key") and the second with
// "all intact". Two real instances on a real PostgreSQL write the chains.
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealRecord, type UnsealedRecord } from '../../../src/audit/chain.js';
import { signCheckpointWithKey, trailIdOf } from '../../../src/audit/checkpoint.js';
import { requestFacets } from '../../../src/postgres/request-facets.js';
import { makeHome, runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { GatewayJar } from '../helpers.js';

let postgres: PostgresServer;
let store: string;
const jar = new GatewayJar();
let witness: string;
let first: GatewayProcess;
let second: GatewayProcess;

const keyOf = (instance: GatewayProcess) => path.join(instance.home, 'audit.pub');
const verify = async (...args: string[]) => runGw(['audit', 'verify', '--store', store, ...args], { home: await makeHome('gw-auditor-') });

async function chat(instance: GatewayProcess, credential: string): Promise<void> {
  const response = await fetch(`${instance.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

async function withClient<T>(run: (client: import('pg').Client) => Promise<T>): Promise<T> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: store });
  await client.connect();
  try { return await run(client); } finally { await client.end(); }
}

async function chainOf(instance: GatewayProcess): Promise<string> {
  return withClient(async (client) => (await client.query<{ chain_id: string }>('SELECT chain_id FROM gw_audit_chains WHERE instance LIKE $1', [`%:${instance.child.pid}`])).rows[0]!.chain_id);
}

/** What an insider with the database does: edit a request's person and status, re-seal every record after it, rewrite the facets, and sign a new checkpoint under a key of their own. */
async function rewriteAndResign(chainId: string): Promise<void> {
  await withClient(async (client) => {
    const { rows } = await client.query<{ seq: string; line: string }>('SELECT seq, line FROM gw_audit_records WHERE chain_id = $1 ORDER BY seq', [chainId]);
    const records = rows.map((row) => JSON.parse(row.line) as UnsealedRecord & { hash?: string; kind: string; person?: unknown; status?: unknown });
    const target = records.findIndex((record) => record.kind === 'request');
    expect(target).toBeGreaterThan(0);
    records[target]!.person = 'someone-else@example.com';
    records[target]!.status = 500;
    let prev = records[target - 1]!.hash!;
    let head = { seq: 0, hash: '' };
    for (const record of records.slice(target)) {
      delete record.hash;
      const sealed = sealRecord({ ...record, prev });
      prev = sealed.record.hash;
      head = { seq: sealed.record.seq, hash: sealed.record.hash };
      const facets = requestFacets(sealed.record);
      await client.query('UPDATE gw_audit_records SET line = $1, facets = $2 WHERE chain_id = $3 AND seq = $4',
        [sealed.line, facets === null ? null : JSON.stringify(facets), chainId, sealed.record.seq]);
    }
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'jwk' }).x!;
    const checkpoint = signCheckpointWithKey(privateKey, raw, trailIdOf(records[0]!.hash!), head);
    await client.query('UPDATE gw_audit_chains SET checkpoint = $1, head_hash = $2 WHERE chain_id = $3', [JSON.stringify(checkpoint), head.hash, chainId]);
  });
}

beforeAll(async () => {
  postgres = await startPostgres();
  store = await postgres.createDatabase();
  const admin = { env: { GW_HOME: await makeHome('gw-admin-') } };
  expect((await runGw(['db', 'migrate', '--store', store], admin)).code).toBe(0);
  await runGw(['teams', 'create', 'eng', '--store', store], admin);
  // A witness on another volume cosigns every instance's checkpoints.
  witness = path.join(await makeHome('gw-witness-volume-'), 'witness.jsonl');
  expect((await runGw(['settings', 'set', 'audit_witness', witness, '--store', store], admin)).code).toBe(0);
  const made = await runGw(['keys', 'create', '--team', 'eng', '--name', 'ci', '--store', store], admin);
  const key = /sk-gw-\w+/.exec(made.stdout + made.stderr)![0];
  [first, second] = await Promise.all([0, 1].map(() => jar.start({ args: ['--store', store, '--standalone'], env: { GW_LOG_LEVEL: 'warn' } })));
  for (const instance of [first!, second!]) for (let index = 0; index < 3; index += 1) await chat(instance, key);
  // Stopped, so the chains stand still while the insider works on them.
  await jar.stopAll();
}, 120_000);

afterAll(async () => {
  await jar.stopAll();
  await postgres?.destroy();
});

it('every chain under a trusted key verifies; an auditor with no keys is refused (fail closed), and --allow-untrusted says UNTRUSTED', async () => {
  const trusted = await verify('--key', keyOf(first), '--key', keyOf(second));
  expect(trusted.code, trusted.stdout + trusted.stderr).toBe(0);
  expect(trusted.stdout).toMatch(/2 chains, all intact/);
  const blind = await verify();
  expect(blind.code).toBe(1);
  expect(blind.stdout).toMatch(/BROKEN.*not trusted/);
  const looking = await verify('--allow-untrusted');
  expect(looking.code).toBe(0);
  expect(looking.stdout.match(/UNTRUSTED/g)?.length).toBe(2);
  const witnessed = await verify('--key', keyOf(first), '--key', keyOf(second), '--witness', witness);
  expect(witnessed.code, witnessed.stdout + witnessed.stderr).toBe(0);
  expect(witnessed.stdout).toMatch(/witness .*: consistent/);
}, 60_000);

it('a chain edited, re-hashed and re-signed under a fresh key, facets and all, fails with every instance\'s key given', async () => {
  const chain = await chainOf(first);
  await rewriteAndResign(chain);
  const verified = await verify('--key', keyOf(first), '--key', keyOf(second));
  expect(verified.code).toBe(1);
  const line = verified.stdout.split('\n').find((candidate) => candidate.includes(chain))!;
  expect(line).toMatch(/BROKEN.*not trusted/);
  // Even an auditor who trusted the forger's key learns from the witness that the chain was rewritten.
  const witnessed = await verify('--allow-untrusted', '--witness', witness);
  expect(witnessed.code).toBe(1);
  expect(witnessed.stdout).toMatch(new RegExp(`MISMATCH: chain ${chain}: (re-chained under a new key|rewritten)`));
}, 60_000);

it('a whole chain deleted (its records and its row) fails: the --key that signed it signs no chain', async () => {
  const chain = await chainOf(second);
  await withClient(async (client) => {
    await client.query('DELETE FROM gw_audit_records WHERE chain_id = $1', [chain]);
    await client.query('DELETE FROM gw_audit_chains WHERE chain_id = $1', [chain]);
  });
  const verified = await verify('--key', keyOf(second));
  expect(verified.code).toBe(1);
  expect(verified.stdout).toContain(`MISSING: --key ${keyOf(second)}`);
  // Without any --key, the witness's inventory still knows the chain existed.
  const witnessed = await verify('--allow-untrusted', '--witness', witness);
  expect(witnessed.code).toBe(1);
  expect(witnessed.stdout).toMatch(/MISMATCH: deleted: the witness cosigned trail .* no chain in the store carries it/);
}, 60_000);
