// The PostgreSQL trail against an insider with the database (issue 27): a chain edited,
// re-hashed and re-signed under a fresh key, its facets rewritten to match, and a whole chain
// deleted, are both failures of `gw audit verify --store` with every instance's key given.
// Before, the first passed with a warning ("no pinned public key") and the second with
// "all intact". Two real instances on a real PostgreSQL write the chains.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { GatewayJar } from '../helpers.js';
import { chainOfPid, deleteChain, rewriteAndResign } from '../audit-contract/postgres-insider.js';

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

const chainOf = (instance: GatewayProcess) => chainOfPid(store, instance.child.pid!);

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
  await rewriteAndResign(store, chain);
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
  await deleteChain(store, chain);
  const verified = await verify('--key', keyOf(second));
  expect(verified.code).toBe(1);
  expect(verified.stdout).toContain(`MISSING: --key ${keyOf(second)}`);
  // Without any --key, the witness's inventory still knows the chain existed.
  const witnessed = await verify('--allow-untrusted', '--witness', witness);
  expect(witnessed.code).toBe(1);
  expect(witnessed.stdout).toMatch(/MISMATCH: deleted: the witness cosigned trail .* no chain in the store carries it/);
}, 60_000);
