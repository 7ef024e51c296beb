// Realtime through a sidecar (issue 26, deliverable 8): a tool on the laptop opens
// /v1/realtime on its sidecar with no key; the sidecar routes it through the hub like any
// other call (the `gateway` provider, its person-bound session credential added at the last
// moment), the hub governs it as the person and opens the provider's socket with its own
// key. Real processes: a hub, a sidecar logged in with a device-login token, and a
// realtime-shaped provider on loopback.
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeHome, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, takeApprovedToken, waitForState, waitUntil } from '../helpers.js';
import { PERSON, runChecked, startHubRig, type HubRig } from '../device-login/support.js';
import { startFakeRealtimeProvider, type FakeRealtimeProvider } from './fake-realtime-provider.js';

const UPSTREAM_KEY = 'sk-fake-realtime-upstream-through-hub';
let fake: FakeRealtimeProvider;
let rig: HubRig;
let sidecar: GatewayProcess;
let token: string;

beforeAll(async () => {
  fake = await startFakeRealtimeProvider(UPSTREAM_KEY);
  rig = await startHubRig({ env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${fake.url}/v1` } });
  const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const started = await (await fetch(`${rig.hub.url}/oauth/device/code`, form({ client_id: 'gw-cli' }))).json() as { device_code: string; user_code: string };
  await runChecked(['device', 'approve', started.user_code, '--person', PERSON], rig.hub.home);
  await waitForState(rig.hub);
  token = String((await takeApprovedToken(rig.hub.url, started.device_code)).access_token);
  expect(token).toMatch(/^atu-/);
  sidecar = await rig.jar.start({ home: await makeHome('gw-laptop-'), env: { GW_TOKEN: token, GW_HUB: rig.hub.url, GW_LOG_LEVEL: 'warn' } });
  expect(sidecar.stdout()).toContain('sidecar mode');
}, 60_000);

afterAll(async () => {
  await rig?.close();
  await fake?.close();
});

it('a realtime session opened on the sidecar with no key reaches the provider through the hub, as the person, with only the hub\'s provider key', async () => {
  const client = new WebSocket(`${sidecar.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, { headers: { 'openai-beta': 'realtime=v1' } });
  const received: Array<{ type: string; session?: { model?: string } }> = [];
  client.on('message', (data) => received.push(JSON.parse(String(data)) as { type: string }));
  const refused = new Promise<string>((resolve) => client.once('unexpected-response', (_request, response) => {
    let body = '';
    response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    response.once('end', () => resolve(`${response.statusCode} ${body}`));
  }));
  const opened = new Promise<string>((resolve, reject) => { client.once('open', () => resolve('open')); client.once('error', reject); });
  expect(await Promise.race([opened, refused])).toBe('open');
  client.send(JSON.stringify({ type: 'session.update', session: { voice: 'alloy' } }));
  await waitUntil(() => received.length >= 2, { what: 'the provider\'s answers through hub and sidecar' });
  client.close(1000);
  expect(received.map((event) => event.type)).toEqual(['session.created', 'session.update.ack']);
  expect(received[0]!.session?.model).toBe('gpt-realtime');
  // The provider saw the hub's key and the client's beta header, never a gw credential.
  const upstream = fake.upgrades.at(-1)!;
  expect(upstream.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
  expect(upstream.headers['openai-beta']).toBe('realtime=v1');
  const sent = JSON.stringify(upstream.headers);
  expect(sent).not.toMatch(/gws-|atu-|x-gw-vk/);
  expect(sent).not.toContain(token);
  expect(fake.messages).toContain(JSON.stringify({ type: 'session.update', session: { voice: 'alloy' } }));
  // Both gateways recorded the session: the sidecar as sent to its hub, the hub as the person's, to the provider.
  await waitUntil(async () => (await readAudit(rig.hub.home)).some((record) => record.kind === 'realtime.close'), { timeoutMs: 10_000, what: 'the hub\'s realtime.close' });
  const hubOpen = (await readAudit(rig.hub.home)).find((record) => record.kind === 'realtime.open')!;
  expect(hubOpen).toMatchObject({ status: 101, person: PERSON, provider: 'openai' });
  const sidecarOpen = (await readAudit(sidecar.home)).find((record) => record.kind === 'realtime.open')!;
  expect(sidecarOpen).toMatchObject({ status: 101, provider: 'hub', model: 'gpt-realtime' });
}, 30_000);
