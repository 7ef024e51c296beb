// The first hour's errors name the culprit (issue 30, deliverable 5): a credential
// that is not a gw key is called that (never echoed); a provider that is down is
// named with its base URL (password masked); a hub URL without a scheme gets the URL
// it probably meant; a login denied with `gw device deny` says an admin denied it.
// Real `gw` child processes throughout.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { NO_KEYCHAIN, runChecked, startHubRig, startLogin } from '../device-login/support.js';

const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => { await Promise.all(stops.splice(0).map((stop) => stop())); });

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function chat(gateway: GatewayProcess, headers: Record<string, string>, model = 'mock/echo'): Promise<{ status: number; message: string; text: string }> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const text = await response.text();
  return { status: response.status, message: (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? '', text };
}

describe('errors that name the culprit', () => {
  it('a credential that is not a gw key is called that, never echoed, and says what a gw key looks like', async () => {
    const gateway = await startGatewayProcess();
    stops.push(() => gateway.stop());
    const sent = [
      { authorization: 'Bearer wrong' },
      { authorization: 'Bearer sk-ant-api03-CANARYpastedAnthropicKey' },
      { 'x-api-key': 'sk-proj-CANARYpastedOpenAiKey' },
      { 'x-goog-api-key': 'AIzaCANARYpastedGeminiKey' },
    ];
    for (const headers of sent) {
      const answer = await chat(gateway, headers);
      expect(answer.status).toBe(401);
      expect(answer.message).toContain('A credential was sent, but it is not a gw key');
      expect(answer.message).toContain('sk-gw-');
      expect(answer.message).toContain('gw token');
      expect(answer.text).not.toContain('CANARY');
      expect(answer.text).not.toContain('wrong');
    }
    // Nothing sent at all keeps its own message.
    expect((await chat(gateway, {})).message).toContain('No gw credential');
    expect(gateway.stdout() + gateway.stderr()).not.toContain('CANARY');
  }, 60_000);

  it('a provider that is down is named with its base URL, the password masked', async () => {
    const home = await makeHome();
    const port = await closedPort();
    await runChecked(['providers', 'add', 'vllm', '--kind', 'openai-compatible', '--base-url', `http://alice:CANARY-pw@127.0.0.1:${port}/v1`], home);
    const gateway = await startGatewayProcess({ home });
    stops.push(() => gateway.stop());
    const answer = await chat(gateway, { authorization: `Bearer ${gateway.bootstrapKey}` }, 'vllm/some-model');
    expect(answer.status).toBe(502);
    expect(answer.message).toContain(`Provider vllm (http://alice:***@127.0.0.1:${port}/v1) could not be reached (ECONNREFUSED)`);
    expect(answer.message).toContain('gw providers test vllm');
    expect(answer.text).not.toContain('CANARY');
  }, 60_000);

  it('gw login --hub 127.0.0.1:8080 suggests http://127.0.0.1:8080; a name without a scheme gets https', async () => {
    const home = await makeHome('gw-laptop-');
    const ip = await runGw(['login', '--hub', '127.0.0.1:8080', '--no-browser'], { home, env: NO_KEYCHAIN });
    expect(ip.code).toBe(2);
    expect(ip.stderr).toContain('did you mean gw login --hub http://127.0.0.1:8080?');
    expect(ip.stderr).not.toContain('gw.example.com');
    const named = await runGw(['login', '--hub', 'gw.corp.internal', '--no-browser'], { home, env: NO_KEYCHAIN });
    expect(named.stderr).toContain('did you mean gw login --hub https://gw.corp.internal?');
  }, 30_000);
});

describe('a denied login, and a sidecar whose hub is down', () => {
  let rig: Awaited<ReturnType<typeof startHubRig>>;
  beforeAll(async () => { rig = await startHubRig(); stops.push(() => rig.close()); }, 60_000);

  it('a gw device deny is reported as denied by an admin, not on the verification page', async () => {
    const denied = startLogin(rig.hub.url, await makeHome('gw-laptop-'));
    await runChecked(['device', 'deny', await denied.code], rig.hub.home);
    expect(await denied.exited).toBe(1);
    expect(denied.stderr()).toContain('denied by an admin');
    expect(denied.stderr()).not.toContain('on the verification page');
  }, 60_000);

  it('a gw device deny through the admin API names the admin', async () => {
    const adminToken = (await runChecked(['admin', 'tokens', 'create', '--name', 'ops@example.com'], rig.hub.home)).trim();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await fetch(`${rig.hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    const denied = startLogin(rig.hub.url, await makeHome('gw-laptop-'));
    const remote = await runGw(['device', 'deny', await denied.code, '--hub', rig.hub.url], { home: await makeHome('gw-admin-'), env: { GW_ADMIN_TOKEN: adminToken } });
    expect(remote.code, remote.stderr).toBe(0);
    expect(await denied.exited).toBe(1);
    expect(denied.stderr()).toContain('denied by an admin (ops@example.com');
  }, 60_000);

  it('a sidecar names the hub and its URL when the hub is down', async () => {
    const laptop = await makeHome('gw-laptop-');
    const approved = startLogin(rig.hub.url, laptop);
    await runChecked(['device', 'approve', await approved.code, '--person', 'alice@example.com'], rig.hub.home);
    expect(await approved.exited).toBe(0);
    const sidecar = await startGatewayProcess({ home: laptop, env: NO_KEYCHAIN });
    stops.push(() => sidecar.stop());
    expect((await chat(sidecar, {}, 'gpt-4o-mini')).status).toBe(200);
    await rig.hub.stop();
    const answer = await chat(sidecar, {}, 'gpt-4o-mini');
    expect([502, 503]).toContain(answer.status);
    expect(answer.message).toContain(`The gw hub ${rig.hub.url} could not be reached`);
  }, 90_000);
});
