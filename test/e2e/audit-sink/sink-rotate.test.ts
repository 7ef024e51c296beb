// The live audit sink across `gw audit rotate` (issue 27, deliverable 6, file store): a real
// `gw serve` whose receiver is down while the chain is rotated. When the receiver is back (the
// same gw, or a gw restarted after SIGKILL) the sink first finishes the closed chain, now in
// audit/chains/, up to its closing record, then streams the new chain from its opening record:
// the receiver holds every record of both chains exactly once, in order, and its one file
// verifies offline with the OLD public key alone (the new key trusted by the rotation in it).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayJar, sleep, waitUntil } from '../helpers.js';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { SinkReceiver } from './sink-receiver.js';
import { calls, configureHome, rawDataOf, sinkHealth, verifyOcsf } from './sink-test-kit.js';

const jar = new GatewayJar();
const receivers: SinkReceiver[] = [];
afterAll(async () => {
  await jar.stopAll();
  for (const receiver of receivers) await receiver.stop();
});

function startGw(home: string): Promise<GatewayProcess> {
  return jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' }, timeoutMs: 60_000 });
}

async function adminToken(gateway: GatewayProcess): Promise<string> {
  const made = await runGw(['admin', 'tokens', 'create', '--name', 'rotator'], { home: gateway.home });
  const token = made.stdout.trim();
  expect(token, made.stderr).toMatch(/^gwa-/);
  await waitUntil(async () => (await fetch(`${gateway.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status === 200, { timeoutMs: 15_000, what: 'the admin token to work' });
  return token;
}

async function caughtUp(gateway: GatewayProcess): Promise<void> {
  await waitUntil(async () => {
    const health = await sinkHealth(gateway);
    return health.state === 'ok' && health.backlog_events === 0 && health.delivered_seq > 0;
  }, { timeoutMs: 180_000, intervalMs: 250, what: 'the sink to catch up' });
}

/** Every chain's record lines, closed chains first (one rotation: one closed chain), then the live one. */
async function chainsInOrder(home: string): Promise<string[][]> {
  const folder = path.join(home, 'audit', 'chains');
  const closed = (await readdir(folder)).filter((name) => name.endsWith('.jsonl'));
  expect(closed).toHaveLength(1);
  const read = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  return [await read(path.join(folder, closed[0]!)), await read(path.join(home, 'audit', 'audit.jsonl'))];
}

const kindOf = (line: string): string => (JSON.parse(line) as { kind: string }).kind;

/** Receiver down; calls; rotate through the admin API; calls; then `whileDown` (a SIGKILL and a restart, or nothing). */
async function rotateWhileReceiverDown(afterRotation: (gateway: GatewayProcess) => Promise<GatewayProcess>): Promise<{ receiver: SinkReceiver; home: string; oldPub: string }> {
  const receiver = new SinkReceiver();
  receivers.push(receiver);
  await receiver.start();
  const home = await configureHome([['audit_sink', receiver.url]]);
  const gateway = await startGw(home);
  const key = gateway.bootstrapKey!;
  const token = await adminToken(gateway);
  await calls(gateway, key, 20);
  await caughtUp(gateway);
  const oldPub = path.join(await makeHome('gw-oldkey-'), 'old.pub');
  await writeFile(oldPub, await readFile(path.join(home, 'audit.pub')));
  await receiver.stop();
  await calls(gateway, key, 150);
  await waitUntil(async () => (await sinkHealth(gateway)).state === 'behind', { timeoutMs: 60_000, intervalMs: 250, what: 'the sink to say behind' });
  const rotated = await runGw(['audit', 'rotate', '--hub', gateway.url, '--json'], { home, env: { GW_ADMIN_TOKEN: token } });
  expect(rotated.code, rotated.stderr).toBe(0);
  await calls(gateway, key, 150);
  // The closed chain's undelivered rest counts in the backlog too (health is refreshed at each retry, up to 10 s apart).
  await waitUntil(async () => (await sinkHealth(gateway)).backlog_events > 300, { timeoutMs: 30_000, intervalMs: 250, what: 'a backlog of both chains' });
  expect((await sinkHealth(gateway)).state).toBe('behind');
  const running = await afterRotation(gateway);
  receiver.dropAnswers = 1; // one batch stored but never acknowledged: it comes again, same uids
  await receiver.start();
  await calls(running, key, 20);
  await caughtUp(running);
  expect(await running.stop()).toBe(0);
  return { receiver, home, oldPub };
}

async function expectBothChains(receiver: SinkReceiver, home: string, oldPub: string): Promise<void> {
  const [closed, live] = await chainsInOrder(home);
  expect(kindOf(closed!.at(-1)!)).toBe('audit.chain_closed');
  expect(kindOf(live![0]!)).toBe('audit.chain_opened');
  const received = rawDataOf(receiver.lines);
  expect(received.length).toBe(closed!.length + live!.length);
  expect(received).toEqual([...closed!, ...live!]);
  expect(receiver.outOfOrder).toBe(0);
  expect(receiver.repeats).toBeGreaterThan(0);
  const verified = await verifyOcsf(receiver.lines, home, oldPub);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toContain(`OCSF export intact: ${received.length} events of 2 chains joined by gw audit rotate`);
  expect(verified.stderr).toMatch(/trusted by rotation from/);
  // The file is checked, not waved through: the new key alone does not vouch for the old chain,
  // and the closed chain's end dropped (its closing record) breaks the hand-over.
  const newKeyOnly = await verifyOcsf(receiver.lines, home);
  expect(newKeyOnly.code).toBe(1);
  expect(newKeyOnly.stdout).toMatch(/BROKEN at event gw:[0-9a-f]{64}:\d+ .*not trusted/);
  const closingAt = closed!.length - 1;
  const withoutClose = await verifyOcsf(receiver.lines.filter((_line, index) => index !== closingAt), home, oldPub);
  expect(withoutClose.code).toBe(1);
  expect(withoutClose.stdout).toContain('BROKEN');
}

describe('audit sink across gw audit rotate (file store)', () => {
  it('finishes the closed chain, then streams the new one: every record once, in order; the file verifies with the old key', { timeout: 400_000 }, async () => {
    const { receiver, home, oldPub } = await rotateWhileReceiverDown(async (gateway) => {
      await sleep(1_000);
      return gateway;
    });
    await expectBothChains(receiver, home, oldPub);
  });

  it('does the same after a SIGKILL while behind across the rotation (the cursor still in the closed chain)', { timeout: 400_000 }, async () => {
    const { receiver, home, oldPub } = await rotateWhileReceiverDown(async (gateway) => {
      expect(await gateway.stop('SIGKILL')).toBe('SIGKILL');
      const cursor = JSON.parse(await readFile(path.join(gateway.home, 'audit-sink-cursor.json'), 'utf8')) as { chain: string };
      const [closed] = await chainsInOrder(gateway.home);
      expect(closed![0]).toBeDefined();
      expect(cursor.chain).not.toBe(JSON.parse(await readFile(path.join(gateway.home, 'audit', 'checkpoint.json'), 'utf8')).trail);
      return startGw(gateway.home);
    });
    await expectBothChains(receiver, home, oldPub);
  });
});
