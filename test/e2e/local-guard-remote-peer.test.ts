// A sidecar started with --allow-remote-sidecar (issue 26, deliverable 8): it warns at start,
// and serves its person only to connections from this machine (loopback) and from the
// CIDRs --allow-remote-peer names, judged by the socket's address, whatever Host header a
// non-browser client writes. Real processes: a hub with fake providers, sidecars logged in
// with a device-login token bound to every address, and clients reaching them through this
// machine's own non-loopback interface addresses (so the sidecar sees a non-loopback peer).
import http from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeHome, runGw, type GatewayProcess } from '../support/gateway-process.js';
import { takeApprovedToken, waitForState } from './helpers.js';
import { PERSON, runChecked, startHubRig, type HubRig } from './device-login/support.js';

/** This machine's own address of a family on a real interface (not loopback, not link-local), if any. */
function interfaceAddress(family: 'IPv4' | 'IPv6'): string | null {
  const all = Object.values(os.networkInterfaces()).flat().filter((entry) => entry !== undefined);
  return all.find((entry) => entry.family === family && !entry.internal && !entry.address.startsWith('fe80:'))?.address ?? null;
}

const IPV4 = interfaceAddress('IPv4');
const IPV6 = interfaceAddress('IPv6');
const CHAT = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello from a peer' }] });
let rig: HubRig;
let env: NodeJS.ProcessEnv;

interface Answer { status: number; code: unknown; body: string }

/** POST a chat to `address` on the sidecar's port, claiming Host: localhost (as any non-browser client can). */
function chatFrom(sidecar: GatewayProcess, address: string): Promise<Answer> {
  const port = new URL(sidecar.url).port;
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname: address, port, method: 'POST', path: '/v1/chat/completions', headers: { host: `localhost:${port}`, 'content-type': 'application/json' } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => {
        let code: unknown = null;
        try { code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code ?? null; } catch { /* not JSON */ }
        resolve({ status: response.statusCode ?? 0, code, body });
      });
    });
    request.on('error', reject).end(CHAT);
  });
}

function upgradeFrom(sidecar: GatewayProcess, address: string): Promise<number> {
  const port = new URL(sidecar.url).port;
  const host = address.includes(':') ? `[${address}]` : address;
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://${host}:${port}/v1/realtime?model=gpt-realtime`, { headers: { host: `localhost:${port}` } });
    socket.once('open', () => { socket.close(); resolve(101); });
    socket.once('unexpected-response', (_request, response) => { response.resume(); resolve(response.statusCode ?? 0); });
    socket.once('error', () => undefined);
  });
}

beforeAll(async () => {
  rig = await startHubRig();
  const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const started = await (await fetch(`${rig.hub.url}/oauth/device/code`, form({ client_id: 'gw-cli' }))).json() as { device_code: string; user_code: string };
  await runChecked(['device', 'approve', started.user_code, '--person', PERSON], rig.hub.home);
  await waitForState(rig.hub);
  const token = String((await takeApprovedToken(rig.hub.url, started.device_code)).access_token);
  env = { GW_TOKEN: token, GW_HUB: rig.hub.url, GW_LOG_LEVEL: 'warn' };
}, 60_000);
afterAll(async () => { await rig?.close(); });

describe.skipIf(IPV4 === null)('a sidecar with --allow-remote-sidecar', () => {
  it('warns at start, serves this machine, and refuses a peer on the network even when it writes Host: localhost', async () => {
    const sidecar = await rig.jar.start({ home: await makeHome('gw-remote-'), env, args: ['--host', '0.0.0.0', '--allow-remote-sidecar'] });
    expect((await chatFrom(sidecar, '127.0.0.1')).status).toBe(200);
    const before = rig.fakes.openai.requests.length;
    expect(await chatFrom(sidecar, IPV4!)).toMatchObject({ status: 403, code: 'auth_remote_peer' });
    expect(await upgradeFrom(sidecar, IPV4!)).toBe(403);
    expect(rig.fakes.openai.requests.length).toBe(before);
    expect(sidecar.stderr()).toContain(`warning: --allow-remote-sidecar: this sidecar listens on 0.0.0.0 and serves calls without a key as the person whose token is in GW_TOKEN`);
    expect(sidecar.stderr()).toContain('serves only connections from this machine (loopback)');
  }, 30_000);

  it.skipIf(IPV6 === null)('serves the peers --allow-remote-peer names (IPv4 and IPv6 CIDRs), and only those', async () => {
    const sidecar = await rig.jar.start({
      home: await makeHome('gw-remote-'), env,
      args: ['--host', '::', '--allow-remote-sidecar', '--allow-remote-peer', `${IPV4}/32`, '--allow-remote-peer', 'fd00:ffff::/32'],
    });
    expect(sidecar.stderr()).toContain(`connections from ${IPV4}/32, fd00:ffff::/32 (--allow-remote-peer)`);
    const served = await chatFrom(sidecar, IPV4!);
    expect(served.status).toBe(200);
    expect(served.body).toContain('hello from a peer');
    // This machine's IPv6 address is outside fd00:ffff::/32.
    expect(await chatFrom(sidecar, IPV6!)).toMatchObject({ status: 403, code: 'auth_remote_peer' });
    const widened = await rig.jar.start({ home: await makeHome('gw-remote-'), env, args: ['--host', '::', '--allow-remote-sidecar', '--allow-remote-peer', `${IPV6}/64`] });
    expect((await chatFrom(widened, IPV6!)).status).toBe(200);
    expect(await chatFrom(widened, IPV4!)).toMatchObject({ status: 403, code: 'auth_remote_peer' });
  }, 40_000);
});

describe('--allow-remote-peer refusals at start', () => {
  it('refuses a text that is no address or CIDR, and the flag without --allow-remote-sidecar (exit 2)', async () => {
    const home = await makeHome('gw-remote-');
    const bad = await runGw(['serve', '--host', '0.0.0.0', '--port', '0', '--allow-remote-sidecar', '--allow-remote-peer', '10.0.0.0/33'], { home, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--allow-remote-peer 10.0.0.0/33: not an IPv4 or IPv6 address or CIDR');
    const alone = await runGw(['serve', '--port', '0', '--allow-remote-peer', '10.0.0.0/8'], { home, env });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--allow-remote-peer goes with --allow-remote-sidecar');
  }, 30_000);
});
