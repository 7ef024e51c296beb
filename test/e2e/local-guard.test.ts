// The local guard through a real `gw serve`, on HTTP routes and on the realtime
// WebSocket upgrades alike. A sidecar guards everything; a standalone gw with
// default_team (set live) guards the calls it would serve without a credential,
// while a call with its own key is not affected. Refusals are audited as
// guard.refused (at once) and guard.refused_burst (per window), with their origin.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeHome, runGw, type GatewayProcess } from '../support/gateway-process.js';
import { GatewayJar, readAudit, waitUntil, type AuditLine } from './helpers.js';

const CHAT = JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] });
const FOREIGN_HOST = { host: 'rebound.attacker.example' };
const CROSS_SITE = { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' };
const REALTIME_ROUTES = ['/v1/realtime', '/openai/realtime'] as const;
/** A sidecar's token; its hub never answers (nothing here needs the hub: every call below is refused before it). */
const SIDECAR_ENV = { GW_TOKEN: 'atu-guardtest0000000000000000000000000000', GW_HUB: 'http://127.0.0.1:9', GW_LOG_LEVEL: 'warn' };

const jar = new GatewayJar();
afterAll(async () => { await jar.stopAll(); });

interface Answer { status: number; code: unknown }

/** Node's http client, since fetch may not set Host. The loopback Host is the default. */
function call(gw: GatewayProcess, path: string, headers: Record<string, string> = {}, body: string | null = CHAT): Promise<Answer> {
  const url = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: url.hostname, port: url.port, method: body === null ? 'GET' : 'POST', path,
      headers: { ...(body === null ? {} : { 'content-type': 'application/json' }), ...headers },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => {
        let code: unknown = null;
        try { code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code ?? null; } catch { /* not JSON */ }
        resolve({ status: response.statusCode ?? 0, code });
      });
    });
    request.on('error', reject).end(body ?? undefined);
  });
}

/** The handshake's outcome: 101 when upgraded, else the refusal's status and error code. */
function upgrade(gw: GatewayProcess, path: string, headers: Record<string, string>, protocols: string[] = []): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}${path}?model=mock/echo`, protocols, { headers });
    socket.once('open', () => { socket.close(); resolve({ status: 101, code: null }); });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      response.once('end', () => {
        let code: unknown = null;
        try { code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code ?? null; } catch { /* not JSON */ }
        resolve({ status: response.statusCode ?? 0, code });
      });
    });
    socket.once('error', (error) => { if (socket.readyState !== WebSocket.CLOSED) reject(error); });
  });
}

async function guardRecords(home: string, kind: string): Promise<AuditLine[]> {
  return (await readAudit(home)).filter((record) => record.kind === kind);
}

describe('a sidecar guards every request and upgrade', () => {
  let sidecar: GatewayProcess;
  beforeAll(async () => {
    const home = await makeHome('gw-guard-sidecar-');
    // A short window, so the burst summary is written during the test.
    expect((await runGw(['settings', 'set', 'refused_burst_window_seconds', '1'], { home })).code).toBe(0);
    sidecar = await jar.start({ home, env: SIDECAR_ENV });
    expect(sidecar.stdout()).toContain('sidecar mode');
  });

  it('refuses a foreign Host and a cross-site page on an HTTP route', async () => {
    expect(await call(sidecar, '/v1/chat/completions', FOREIGN_HOST)).toEqual({ status: 403, code: 'auth_foreign_host' });
    expect(await call(sidecar, '/v1/chat/completions', CROSS_SITE)).toEqual({ status: 403, code: 'auth_cross_origin' });
  });

  it.each(REALTIME_ROUTES)('refuses a foreign Host and a foreign Origin on the %s upgrade', async (route) => {
    expect(await upgrade(sidecar, route, FOREIGN_HOST)).toEqual({ status: 403, code: 'auth_foreign_host' });
    expect(await upgrade(sidecar, route, { origin: 'https://attacker.example' })).toEqual({ status: 403, code: 'auth_cross_origin' });
    // A gw key in the subprotocol does not lift a sidecar's guard.
    expect((await upgrade(sidecar, route, FOREIGN_HOST, ['realtime', 'openai-insecure-api-key.sk-gw-anything'])).status).toBe(403);
  });

  it('audits the first refusal at once and the rest as a burst, with the origin and the paths', async () => {
    await waitUntil(async () => (await guardRecords(sidecar.home, 'guard.refused_burst')).length > 0, { timeoutMs: 8_000, what: 'a guard.refused_burst record' });
    const [first] = await guardRecords(sidecar.home, 'guard.refused');
    expect(first).toMatchObject({ origin: '127.0.0.1', data: { count: 1, paths: ['/v1/chat/completions'], reasons: { 'foreign-host': 1 } } });
    const bursts = await guardRecords(sidecar.home, 'guard.refused_burst');
    const paths = new Set(bursts.flatMap((record) => (record.data as { paths: string[] }).paths));
    expect(paths).toEqual(new Set(['/v1/chat/completions', '/v1/realtime', '/openai/realtime']));
    // 8 refusals above; a window closing between two of them may move one into a second burst's first record.
    const total = bursts.reduce((sum, record) => sum + (record.data as { count: number }).count, 0);
    expect(total).toBeGreaterThanOrEqual(7);
    for (const burst of bursts) expect(burst.origin).toBe('127.0.0.1');
    // A refusal is never recorded as a served request.
    expect((await readAudit(sidecar.home)).filter((record) => record.kind === 'request')).toEqual([]);
  });
});

describe('standalone with default_team guards credential-less calls only', () => {
  let gw: GatewayProcess;
  let key: string;
  beforeAll(async () => {
    gw = await jar.start({ env: { GW_LOG_LEVEL: 'warn' } });
    key = gw.bootstrapKey!;
    // Set live, as an operator would: the running gateway picks it up.
    expect((await runGw(['settings', 'set', 'default_team', 'local'], { home: gw.home })).code).toBe(0);
    await waitUntil(async () => (await call(gw, '/v1/chat/completions')).status === 200, { what: 'default_team in force' });
  });

  it('refuses a credential-less call with a foreign Host or from a cross-site page', async () => {
    expect(await call(gw, '/v1/chat/completions', FOREIGN_HOST)).toMatchObject({ status: 403, code: 'auth_foreign_host' });
    expect(await call(gw, '/v1/chat/completions', CROSS_SITE)).toMatchObject({ status: 403, code: 'auth_cross_origin' });
    expect(await call(gw, '/v1/chat/completions', { 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' })).toMatchObject({ status: 403 });
    expect((await call(gw, '/v1/models', FOREIGN_HOST, null)).status).toBe(403);
  });

  it('serves a call with its own key whatever its Host or Origin', async () => {
    const auth = { authorization: `Bearer ${key}` };
    expect((await call(gw, '/v1/chat/completions', { ...auth, ...FOREIGN_HOST })).status).toBe(200);
    expect((await call(gw, '/v1/chat/completions', { ...auth, ...CROSS_SITE })).status).toBe(200);
  });

  it.each(REALTIME_ROUTES)('refuses a credential-less %s upgrade with a foreign Host or Origin; a keyed one passes the guard', async (route) => {
    expect(await upgrade(gw, route, FOREIGN_HOST)).toMatchObject({ status: 403, code: 'auth_foreign_host' });
    expect(await upgrade(gw, route, { origin: 'https://attacker.example' })).toMatchObject({ status: 403, code: 'auth_cross_origin' });
    const keyed = await upgrade(gw, route, { ...FOREIGN_HOST, 'x-gw-vk': key });
    expect(keyed.code).not.toMatch(/^auth_/);
    const inProtocol = await upgrade(gw, route, { origin: 'https://attacker.example' }, ['realtime', `openai-insecure-api-key.${key}`]);
    expect(inProtocol.code).not.toMatch(/^auth_/);
  });

  it('health and metrics stay reachable by any Host: they serve no call', async () => {
    expect((await call(gw, '/health', FOREIGN_HOST, null)).status).toBe(200);
  });

  it('audits the refusals with their origin', async () => {
    await waitUntil(async () => (await guardRecords(gw.home, 'guard.refused')).length > 0, { what: 'a guard.refused record' });
    expect((await guardRecords(gw.home, 'guard.refused'))[0]).toMatchObject({ origin: '127.0.0.1', data: { reasons: { 'foreign-host': 1 } } });
  });
});

describe('a sidecar bound off loopback', () => {
  it('refuses to start without --allow-remote-sidecar, and says why', async () => {
    const home = await makeHome('gw-guard-remote-');
    const result = await runGw(['serve', '--host', '0.0.0.0', '--port', '0'], { home, env: SIDECAR_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to start a sidecar on 0.0.0.0');
    expect(result.stderr).toContain('would be served as them');
    expect(result.stderr).toContain('--allow-remote-sidecar');
    expect(result.stdout).not.toContain('listening');
  });

  it('starts with --allow-remote-sidecar, its guard still on', async () => {
    const sidecar = await jar.start({ env: SIDECAR_ENV, args: ['--host', '0.0.0.0', '--allow-remote-sidecar'] });
    expect(sidecar.stdout()).toContain('sidecar mode');
    expect(await call(sidecar, '/v1/chat/completions', FOREIGN_HOST)).toEqual({ status: 403, code: 'auth_foreign_host' });
  });

  it('a standalone gw may bind off loopback as before', async () => {
    const gw = await jar.start({ args: ['--host', '0.0.0.0'] });
    expect(gw.stdout()).toContain('standalone mode');
  });
});
