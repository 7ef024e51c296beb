// The live audit sink to a SIEM's HTTP collector (issue 27, deliverable 6): a real `gw serve`
// streams its trail as OCSF event lines to a real loopback receiver. A receiver stopped under
// load (through several failed deliveries with growing backoff), and a gw killed with SIGKILL while the sink is behind, end the same way:
// the receiver holds every record of the trail exactly once (repeats dropped by uid), in trail
// order, and its file verifies with `gw audit verify --ocsf` and the instance's public key.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayJar, waitUntil } from '../helpers.js';
import { SinkReceiver } from './sink-receiver.js';
import { calls, configureHome, healthText, load, metric, metricsText, rawDataOf, sinkHealth, trailLines, verifyOcsf } from './sink-test-kit.js';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';

const jar = new GatewayJar();
const receivers: SinkReceiver[] = [];
afterAll(async () => {
  await jar.stopAll();
  for (const receiver of receivers) await receiver.stop();
});

const TOKEN = 'sink-token-5b1e0c7d9a2f4e8b';

async function startReceiver(): Promise<SinkReceiver> {
  const receiver = new SinkReceiver();
  receivers.push(receiver);
  await receiver.start();
  return receiver;
}

async function sinkHome(receiver: SinkReceiver): Promise<string> {
  return configureHome([['audit_sink', receiver.url], ['audit_sink_token', 'env:SIEM_TOKEN']]);
}

function startGw(home: string): Promise<GatewayProcess> {
  return jar.start({ home, env: { SIEM_TOKEN: TOKEN }, timeoutMs: 60_000 });
}

/** Waits until the sink has delivered all the checkpoint covers and says ok. */
async function caughtUp(gateway: GatewayProcess, timeoutMs = 120_000): Promise<void> {
  await waitUntil(async () => {
    const health = await sinkHealth(gateway);
    return health.state === 'ok' && health.backlog_events === 0 && health.delivered_seq > 0;
  }, { timeoutMs, intervalMs: 250, what: 'the sink to catch up' });
}

/** The receiver holds the whole trail, once each, in order, and its lines verify offline. */
async function expectWholeTrail(receiver: SinkReceiver, home: string): Promise<void> {
  const trail = await trailLines(home);
  expect(receiver.lines.length).toBe(trail.length);
  expect(rawDataOf(receiver.lines)).toEqual(trail);
  expect(receiver.outOfOrder).toBe(0);
  const verified = await verifyOcsf(receiver.lines, home);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toContain(`OCSF export intact: ${trail.length} events`);
}

describe('audit sink to an HTTP receiver', () => {
  it('keeps every record, once and in order, across a receiver down under load through several backed-off retries', { timeout: 300_000 }, async () => {
    const receiver = await startReceiver();
    const home = await sinkHome(receiver);
    const gateway = await startGw(home);
    const key = gateway.bootstrapKey!;
    let stopLoad = false;
    const traffic = load(gateway, key, 8, () => stopLoad);
    await waitUntil(() => receiver.lines.length > 20, { timeoutMs: 60_000, what: 'the first events at the receiver' });
    await receiver.stop();
    const deliveredBefore = await metric(gateway, 'gw_audit_sink_delivered_events_total');
    expect(deliveredBefore).toBeGreaterThan(0);
    await waitUntil(async () => (await sinkHealth(gateway)).state === 'behind', { timeoutMs: 60_000, intervalMs: 250, what: 'the sink to say behind' });
    // Down long enough for the backoff to grow (0.5, 1, 2 s…) and events to pile up in the trail (docs/decisions.md).
    await waitUntil(async () => (await metric(gateway, 'gw_audit_sink_failures_total')) >= 4 && (await sinkHealth(gateway)).backlog_events > 50,
      { timeoutMs: 60_000, intervalMs: 250, what: 'four failed deliveries and a backlog' });
    expect(gateway.child.exitCode ?? gateway.child.signalCode, `gw exited while the receiver was down: ${gateway.stderr().slice(-3000)}`).toBeNull();
    const behind = await sinkHealth(gateway);
    expect(behind.state).toBe('behind');
    expect(behind.status).toBe('degraded');
    expect(behind.backlog_events).toBeGreaterThan(50);
    expect(behind.backlog_bytes).toBeGreaterThan(0);
    expect(behind.last_error).toMatch(/could not be reached/);
    expect(await metric(gateway, 'gw_audit_sink_failures_total')).toBeGreaterThan(0);
    expect(await metric(gateway, 'gw_audit_sink_backlog_events')).toBeGreaterThan(50);
    // Back up: its first two batches are stored but never acknowledged (the connection drops), so they come again.
    receiver.dropAnswers = 2;
    await receiver.start();
    // Under load still, until the dropped batches have come again.
    await waitUntil(() => receiver.repeats > 0, { timeoutMs: 60_000, intervalMs: 100, what: 'the unacknowledged batches to be sent again' });
    stopLoad = true;
    const statuses = await traffic;
    expect(statuses.length).toBeGreaterThan(100);
    expect(statuses.every((status) => status === 200)).toBe(true);
    await caughtUp(gateway);
    expect(await metric(gateway, 'gw_audit_sink_delivered_events_total')).toBeGreaterThan(deliveredBefore);
    expect(await metric(gateway, 'gw_audit_sink_backlog_events')).toBe(0);
    expect(await gateway.stop()).toBe(0);
    expect(receiver.repeats).toBeGreaterThan(0);
    await expectWholeTrail(receiver, home);
    // The stop's own record reached the receiver before gw exited.
    expect(JSON.parse(receiver.lines.at(-1)!).metadata.event_code).toBe('gateway.stop');
    expect([...receiver.contentTypes]).toEqual(['application/x-ndjson']);
  });

  it('loses nothing when gw is killed with SIGKILL while the sink is behind', { timeout: 300_000 }, async () => {
    const receiver = await startReceiver();
    const home = await sinkHome(receiver);
    const first = await startGw(home);
    const key = first.bootstrapKey!;
    await calls(first, key, 40);
    await caughtUp(first);
    await receiver.stop();
    await calls(first, key, 300);
    await waitUntil(async () => (await sinkHealth(first)).state === 'behind', { timeoutMs: 60_000, intervalMs: 250, what: 'the sink to say behind' });
    expect(await first.stop('SIGKILL')).toBe('SIGKILL');
    const cursor = JSON.parse(await readFile(path.join(home, 'audit-sink-cursor.json'), 'utf8')) as { seq: number; target: string };
    const killedAt = await trailLines(home);
    expect(cursor.target).toBe(receiver.url);
    expect(cursor.seq).toBeGreaterThan(0);
    expect(cursor.seq).toBeLessThan(killedAt.length - 300);
    await receiver.start();
    const second = await startGw(home);
    await calls(second, key, 20);
    await caughtUp(second);
    expect(await second.stop()).toBe(0);
    await expectWholeTrail(receiver, home);
  });

  it('sends the token given as env:NAME as a Bearer token and shows it nowhere', { timeout: 120_000 }, async () => {
    const receiver = await startReceiver();
    receiver.requiredAuthorization = `Bearer ${TOKEN}`;
    const home = await sinkHome(receiver);
    const gateway = await startGw(home);
    await calls(gateway, gateway.bootstrapKey!, 10);
    await caughtUp(gateway);
    const health = await healthText(gateway);
    const metrics = await metricsText(gateway);
    expect(await gateway.stop()).toBe(0);
    expect([...receiver.authorizations]).toEqual([`Bearer ${TOKEN}`]);
    expect(receiver.lines.length).toBe((await trailLines(home)).length);
    const places = { stdout: gateway.stdout(), stderr: gateway.stderr(), health, metrics, trail: await readFile(path.join(home, 'audit', 'audit.jsonl'), 'utf8'),
      state: await readFile(path.join(home, 'state.json'), 'utf8'), cursor: await readFile(path.join(home, 'audit-sink-cursor.json'), 'utf8'), received: receiver.lines.join('\n') };
    for (const [place, text] of Object.entries(places)) expect(text.includes(TOKEN), `the token in ${place}`).toBe(false);

    // A wrong token: the receiver refuses, /health says so without the token, nothing is lost.
    const refused = await startReceiver();
    refused.requiredAuthorization = 'Bearer another-token';
    const refusedHome = await sinkHome(refused);
    const refusing = await startGw(refusedHome);
    await waitUntil(async () => (await sinkHealth(refusing)).state === 'behind', { timeoutMs: 60_000, intervalMs: 250, what: 'the sink to say behind' });
    const text = await healthText(refusing);
    expect(JSON.parse(text).components.audit_sink.last_error).toBe('the receiver answered HTTP 401');
    expect(text.includes(TOKEN)).toBe(false);
    expect(await refusing.stop()).toBe(0);
    expect(refusing.stdout().includes(TOKEN) || refusing.stderr().includes(TOKEN)).toBe(false);
    expect(refused.lines).toEqual([]);
  });

  it('refuses to start when the token variable is unset, and refuses a plain http receiver off loopback', { timeout: 120_000 }, async () => {
    const receiver = await startReceiver();
    const home = await sinkHome(receiver);
    await expect(jar.start({ home, timeoutMs: 60_000 })).rejects.toThrow(/audit_sink_token = env:SIEM_TOKEN, but that variable is not set/);
    const plain = await runGw(['settings', 'set', 'audit_sink', 'http://siem.example.com/ingest'], { home });
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toContain('http:// only to a loopback host');
  });
});
