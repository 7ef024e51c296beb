// The live audit sink on a PostgreSQL store (issue 27, deliverable 6): real `gw serve --store`
// instances on a real PostgreSQL (scripts/database-servers.mjs), each with its own home, and one
// loopback receiver (audit_sink is a setting of the store, shared). Each instance streams its own
// chains and no other's: under load with the receiver down and up again, then killed with SIGKILL while behind and started again (a new boot,
// so a new chain), the receiver holds every record of the instance's chains exactly once, in
// order, with the uids `gw audit export --format ocsf --store` gives, and each chain's events
// verify offline with the instance's public key.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayJar, waitUntil } from '../helpers.js';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { SinkReceiver } from './sink-receiver.js';
import { calls, load, rawDataOf, sinkHealth, verifyOcsf } from './sink-test-kit.js';

const jar = new GatewayJar();
const receivers: SinkReceiver[] = [];
let postgres: PostgresServer | undefined;
let store = '';
let key = '';
let receiver: SinkReceiver;

beforeAll(async () => {
  postgres = await startPostgres();
  store = await postgres.createDatabase();
  const admin = { env: { GW_HOME: await makeHome('gw-admin-') } };
  const migrated = await runGw(['db', 'migrate', '--store', store], admin);
  expect(migrated.code, migrated.stderr).toBe(0);
  await runGw(['teams', 'create', 'eng', '--store', store], admin);
  const made = await runGw(['keys', 'create', '--team', 'eng', '--name', 'load', '--store', store], admin);
  key = /sk-gw-\w+/.exec(made.stdout + made.stderr)![0];
  receiver = await startReceiver();
  const set = await runGw(['settings', 'set', 'audit_sink', receiver.url], { env: { ...admin.env, GW_DATABASE_URL: store } });
  expect(set.code, set.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await jar.stopAll();
  for (const receiver of receivers) await receiver.stop();
  await postgres?.destroy();
});

async function startReceiver(): Promise<SinkReceiver> {
  const receiver = new SinkReceiver();
  receivers.push(receiver);
  await receiver.start();
  return receiver;
}

function startGw(home: string): Promise<GatewayProcess> {
  return jar.start({ home, args: ['--store', store, '--standalone'], env: { GW_LOG_LEVEL: 'warn' }, timeoutMs: 60_000 });
}

async function caughtUp(gateway: GatewayProcess): Promise<void> {
  await waitUntil(async () => {
    const health = await sinkHealth(gateway);
    return health.state === 'ok' && health.backlog_events === 0 && health.delivered_seq > 0;
  }, { timeoutMs: 180_000, intervalMs: 250, what: 'the sink to catch up' });
}

interface StoreChain { chainId: string; lines: string[] }

/** The chains signed by the home's key, in the order they were started, each chain's lines in seq order. */
async function chainsOf(home: string): Promise<StoreChain[]> {
  const publicKey = (await readFile(path.join(home, 'audit.pub'), 'utf8')).trim();
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: store });
  await client.connect();
  try {
    const { rows: chains } = await client.query<{ chain_id: string }>("SELECT chain_id FROM gw_audit_chains WHERE checkpoint->>'public_key' = $1 ORDER BY started_at, chain_id", [publicKey]);
    return await Promise.all(chains.map(async ({ chain_id: chainId }) => {
      const { rows } = await client.query<{ line: string }>('SELECT line FROM gw_audit_records WHERE chain_id = $1 ORDER BY seq', [chainId]);
      return { chainId, lines: rows.map((row) => row.line) };
    }));
  } finally {
    await client.end();
  }
}

const chainUidOf = (event: string): string => (JSON.parse(event) as { attestation_list: Array<{ chain_uid: string }> }).attestation_list[0]!.chain_uid;
const uidOf = (event: string): string => (JSON.parse(event) as { metadata: { uid: string } }).metadata.uid;

/** Every record of the instance's chains once, in order; per chain the export's uids, and the events verify offline. */
async function expectOwnChains(home: string, boots: number): Promise<void> {
  const chains = await chainsOf(home);
  expect(chains).toHaveLength(boots);
  const byChain = new Map<string, string[]>();
  for (const event of receiver.lines) byChain.set(chainUidOf(event), [...byChain.get(chainUidOf(event)) ?? [], event]);
  const exports = await Promise.all(chains.map(async (chain) => {
    const exported = await runGw(['audit', 'export', '--format', 'ocsf', '--store', store, '--chain', chain.chainId], { home });
    expect(exported.code, exported.stderr).toBe(0);
    return exported.stdout.split('\n').filter(Boolean);
  }));
  const own = new Set(exports.map((events) => chainUidOf(events[0]!)));
  // The instance's chains, in the order it wrote them: the receiver's events of those chains, in arrival order.
  expect(rawDataOf(receiver.lines.filter((event) => own.has(chainUidOf(event))))).toEqual(chains.flatMap((chain) => chain.lines));
  for (const [index, chain] of chains.entries()) {
    const exportedEvents = exports[index]!;
    const received = byChain.get(chainUidOf(exportedEvents[0]!))!;
    expect(received.map(uidOf)).toEqual(exportedEvents.map(uidOf));
    const verified = await verifyOcsf(received, home);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`OCSF export intact: ${chain.lines.length} events`);
  }
}

async function adminToken(gateway: GatewayProcess): Promise<string> {
  const made = await runGw(['admin', 'tokens', 'create', '--name', 'rotator', '--store', store], { home: gateway.home });
  const token = made.stdout.trim();
  expect(token, made.stderr).toMatch(/^gwa-/);
  await waitUntil(async () => (await fetch(`${gateway.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status === 200, { timeoutMs: 15_000, what: 'the admin token to work' });
  return token;
}

describe('audit sink on a PostgreSQL store', () => {
  it('each instance streams its own chains: receiver down then up under load, then SIGKILL while behind; every record once, in order, verifying offline', { timeout: 600_000 }, async () => {
    const home = await makeHome('gw-sink-a-');
    const otherHome = await makeHome('gw-sink-b-');
    const gateway = await startGw(home);
    const neighbour = await startGw(otherHome);
    let stopLoad = false;
    const traffic = load(gateway, key, 6, () => stopLoad);
    const neighbourTraffic = load(neighbour, key, 2, () => stopLoad);
    await waitUntil(() => receiver.lines.length > 20, { timeoutMs: 60_000, what: 'the first events at the receiver' }).catch(async (error) => {
      throw new Error(`${String(error)}; health ${JSON.stringify(await sinkHealth(gateway))}; stderr ${gateway.stderr().slice(-2000)}`);
    });
    await receiver.stop();
    await waitUntil(async () => (await sinkHealth(gateway)).state === 'behind', { timeoutMs: 60_000, intervalMs: 250, what: 'the sink to say behind' });
    await waitUntil(async () => (await sinkHealth(gateway)).backlog_events > 50, { timeoutMs: 60_000, intervalMs: 250, what: 'a backlog under load' });
    const behind = await sinkHealth(gateway);
    expect(behind.status).toBe('degraded');
    expect(behind.backlog_events).toBeGreaterThan(50);
    receiver.dropAnswers = 2; // stored, never acknowledged: sent again with the same uids
    await receiver.start();
    // Under load still, until the dropped batches have come again.
    await waitUntil(() => receiver.repeats > 0, { timeoutMs: 60_000, intervalMs: 100, what: 'the unacknowledged batches to be sent again' });
    stopLoad = true;
    const statuses = [...await traffic, ...await neighbourTraffic];
    expect(statuses.length).toBeGreaterThan(100);
    expect(statuses.every((status) => status === 200)).toBe(true);
    await caughtUp(gateway);
    await caughtUp(neighbour);
    expect(receiver.repeats).toBeGreaterThan(0);

    // SIGKILL while behind: the next boot is a new chain; the killed boot's chain is finished first.
    await receiver.stop();
    await calls(gateway, key, 200);
    await waitUntil(async () => (await sinkHealth(gateway)).state === 'behind', { timeoutMs: 60_000, intervalMs: 250, what: 'the sink to say behind' });
    expect(await gateway.stop('SIGKILL')).toBe('SIGKILL');
    const cursor = JSON.parse(await readFile(path.join(home, 'audit-sink-cursor.json'), 'utf8')) as { seq: number };
    const [killed] = await chainsOf(home);
    expect(cursor.seq).toBeLessThan(killed!.lines.length - 150);
    await receiver.start();
    const again = await startGw(home);
    await calls(again, key, 20);
    await caughtUp(again);
    expect(await again.stop()).toBe(0);
    expect(await neighbour.stop()).toBe(0);
    await expectOwnChains(home, 2);
    await expectOwnChains(otherHome, 1);
    // Nothing but the two instances' chains, nothing twice, each chain in order.
    expect(new Set(receiver.uids()).size).toBe(receiver.lines.length);
    expect(receiver.outOfOrder).toBe(0);
    expect(receiver.lines.length).toBe([...await chainsOf(home), ...await chainsOf(otherHome)].reduce((sum, chain) => sum + chain.lines.length, 0));
  });

  it('across gw audit rotate on the store: the closed chain to its close, then the next; the pair verifies with the old key alone', { timeout: 400_000 }, async () => {
    const home = await makeHome('gw-sink-rot-');
    const gateway = await startGw(home);
    const token = await adminToken(gateway);
    await calls(gateway, key, 20);
    await caughtUp(gateway);
    const oldPub = path.join(await makeHome('gw-oldkey-'), 'old.pub');
    await writeFile(oldPub, await readFile(path.join(home, 'audit.pub')));
    await receiver.stop();
    await calls(gateway, key, 100);
    const rotated = await runGw(['audit', 'rotate', '--hub', gateway.url], { home, env: { GW_ADMIN_TOKEN: token } });
    expect(rotated.code, rotated.stderr).toBe(0);
    await calls(gateway, key, 100);
    await receiver.start();
    await calls(gateway, key, 10);
    await caughtUp(gateway);
    expect(await gateway.stop()).toBe(0);
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: store });
    await client.connect();
    const ours = new Set<string>();
    let closedLines: string[];
    let openedLines: string[];
    try {
      const { rows } = await client.query<{ chain_id: string; trail: string; closed: boolean | null }>(
        "SELECT chain_id, checkpoint->>'trail' AS trail, (checkpoint->>'closed')::boolean AS closed FROM gw_audit_chains WHERE checkpoint->>'public_key' IN ($1, $2) ORDER BY started_at",
        [(await readFile(oldPub, 'utf8')).trim(), (await readFile(path.join(home, 'audit.pub'), 'utf8')).trim()]);
      expect(rows).toHaveLength(2);
      expect(rows[0]!.closed).toBe(true);
      const linesOf = async (chainId: string) => (await client.query<{ line: string }>('SELECT line FROM gw_audit_records WHERE chain_id = $1 ORDER BY seq', [chainId])).rows.map((row) => row.line);
      closedLines = await linesOf(rows[0]!.chain_id);
      openedLines = await linesOf(rows[1]!.chain_id);
      for (const row of rows) ours.add(row.trail);
    } finally {
      await client.end();
    }
    const received = receiver.lines.filter((event) => ours.has(chainUidOf(event)));
    expect(rawDataOf(received)).toEqual([...closedLines, ...openedLines]);
    const verified = await verifyOcsf(received, home, oldPub);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`OCSF export intact: ${received.length} events of 2 chains joined by gw audit rotate`);
  });
});
