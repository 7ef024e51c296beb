// Issue 26, deliverable 4: an admin token never yields a secret the hub holds. A real hub runs
// with provider keys and other secrets in its environment; an admin with only an admin token
// (no shell on the hub) tries every way of pointing one of them at a server of theirs: an MCP
// server's header read from a variable (--header-env, or --header NAME=env:VAR), a provider or a
// route target whose key is a variable (--api-key-env, key=env:VAR), a hub-configured provider
// or MCP server moved to their host, the OIDC client secret. Their server is a real HTTP server
// on loopback that records every byte it receives: it must never receive a value of the hub's.
// Each probe runs through `gw … --hub URL` (POST /admin/api/commands with the admin token) and
// through the console's session (the same API, a session cookie and its x-gw-csrf value).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startCatchAllProvider, type CatchAllProvider } from '../corridor/catch-all-provider.js';
import { GatewayJar, readAudit } from '../helpers.js';

const SECRETS = {
  OPENAI_API_KEY: 'sk-hub-provider-key-0a1b2c3d4e5f',
  SOME_VAR: 'hub-only-variable-value-9z8y7x',
  ROUTE_KEY: 'sk-hub-route-key-6f5e4d3c2b1a',
  GH_TOKEN: 'ghp-hub-mcp-token-1q2w3e4r5t',
  GW_OIDC_SECRET: 'hub-oidc-client-secret-5t4r3e',
};
const jar = new GatewayJar();
let hub: GatewayProcess;
let theirs: CatchAllProvider;
let legit: CatchAllProvider;
let adminToken: string;
let laptop: string;

const remote = (argv: string[]) => runGw([...argv, '--hub', hub.url], { home: laptop, env: { GW_ADMIN_TOKEN: adminToken } });
const onHub = (argv: string[]) => runGw(argv, { home: hub.home, env: { ...SECRETS } });

function chat(model: string): Promise<Response> {
  return fetch(`${hub.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${hub.bootstrapKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
  });
}

/** What their server saw must hold none of the hub's values. */
function expectNothingLeaked(): void {
  const seen = theirs.everything();
  for (const [name, value] of Object.entries(SECRETS)) expect(seen, `${name} reached their server`).not.toContain(value);
}

async function waitForAdmin(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await fetch(`${hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
}

beforeAll(async () => {
  [theirs, legit] = await Promise.all([startCatchAllProvider('unused'), startCatchAllProvider('unused')]);
  hub = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn', ...SECRETS } });
  expect(hub.bootstrapKey).toMatch(/^sk-gw-/);
  adminToken = (await runGw(['admin', 'tokens', 'create', '--name', 'ops@example.com'], { home: hub.home })).stdout.trim();
  expect(adminToken).toMatch(/^gwa-/);
  laptop = await makeHome('gw-remote-secrets-laptop-');
  // What the hub's operator set up in the hub's own shell: credentials bound to the legit host.
  for (const argv of [
    ['providers', 'add', 'openai', '--kind', 'openai', '--base-url', `${legit.url}/v1`, '--api-key-env', 'OPENAI_API_KEY'],
    ['routes', 'add', 'fast', '--target', 'openai/gpt-4o,key=env:ROUTE_KEY'],
    ['mcp', 'add', 'gh', '--url', `${legit.url}/mcp`, '--header-env', 'Authorization=GH_TOKEN'],
    ['settings', 'set', 'oidc_issuer', legit.url],
    ['settings', 'set', 'oidc_client_secret', 'env:GW_OIDC_SECRET'],
  ]) {
    const result = await onHub(argv);
    expect(result.code, result.stderr).toBe(0);
  }
  await waitForAdmin();
}, 60_000);

// Each probe judged on its own: what their server saw during it.
beforeEach(() => { theirs.requests.length = 0; });

afterAll(async () => {
  await jar.stopAll();
  await Promise.all([theirs?.close(), legit?.close()]);
});

describe('through gw … --hub (POST /admin/api/commands with an admin token)', () => {
  it('mcp add --header-env NAME=VAR is refused; mcp test sends their server nothing of the hub\'s', async () => {
    const added = await remote(['mcp', 'add', 'leak', '--url', `${theirs.url}/mcp`, '--header-env', 'Authorization=SOME_VAR']);
    await remote(['mcp', 'test', 'leak']);
    expectNothingLeaked();
    expect(added.code).not.toBe(0);
    expect(added.stderr).toContain('--header-env');
  }, 30_000);

  it('mcp add --header x-leak=env:VAR is refused, in either option form', async () => {
    for (const argv of [
      ['mcp', 'add', 'leak2', '--url', `${theirs.url}/mcp`, '--header', 'x-leak=env:OPENAI_API_KEY'],
      ['mcp', 'add', 'leak2', '--url', `${theirs.url}/mcp`, '--header=x-leak=ENV:OPENAI_API_KEY'],
      ['mcp', 'add', 'leak2', '--url', `${theirs.url}/mcp`, '--header', 'x-ok=1', 'x-leak=env:OPENAI_API_KEY'],
    ]) {
      const added = await remote(argv);
      await remote(['mcp', 'test', 'leak2']);
      expectNothingLeaked();
      expect(added.code, argv.join(' ')).not.toBe(0);
      expect(added.stderr.toLowerCase()).toContain('env:');
    }
  }, 30_000);

  it('providers add --api-key-env is refused; a call to that provider sends their server no key of the hub\'s', async () => {
    const added = await remote(['providers', 'add', 'evil', '--kind', 'openai', '--base-url', `${theirs.url}/v1`, '--api-key-env', 'OPENAI_API_KEY']);
    await (await chat('evil/gpt-4o')).text();
    expectNothingLeaked();
    expect(added.code).not.toBe(0);
    expect(added.stderr).toContain('--api-key-env');
  }, 30_000);

  it('a route target key=env:VAR is refused', async () => {
    const provider = await remote(['providers', 'add', 'evil2', '--kind', 'openai', '--base-url', `${theirs.url}/v1`]);
    expect(provider.code, provider.stderr).toBe(0);
    const route = await remote(['routes', 'add', 'stolen', '--target', 'evil2/gpt-4o,key=env:OPENAI_API_KEY']);
    await (await chat('stolen')).text();
    await (await chat('evil2/gpt-4o')).text();
    expectNothingLeaked();
    expect(route.code).not.toBe(0);
    expect(route.stderr).toContain('env:');
  }, 30_000);

  it.each([
    [['providers', 'add', 'x', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', '@/etc/passwd'], '@'],
    [['policy', 'list', '--home', '/tmp'], '--home'],
    [['policy', 'list', '--home=/tmp'], '--home'],
    [['dlp', 'test', '--file=/etc/passwd'], '--file'],
    [['mcp', 'add', 'x', '--url', 'http://127.0.0.1:9/mcp', '--env', 'A=1'], '--env'],
    [['mcp', 'add', 'x', '--command', 'id'], '--command'],
    [['providers', 'list', '--tls-cert', '/etc/passwd'], '--tls-cert'],
    [['settings', 'set', 'oidc_client_secret', 'env:OPENAI_API_KEY'], 'env:'],
    [['policy', 'list', '--', '--home'], '--'],
  ])('%j is refused before anything runs', async (argv, named) => {
    // Straight to the API: the laptop's CLI would keep --home for itself.
    const answer = await fetch(`${hub.url}/admin/api/commands`, {
      method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ argv }),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(named);
  });

  it('moving the hub\'s provider to their host drops the route key bound to the old host, and says so', async () => {
    expect((await remote(['providers', 'remove', 'openai'])).code).toBe(0);
    const added = await remote(['providers', 'add', 'openai', '--kind', 'openai', '--base-url', `${theirs.url}/v1`]);
    await (await chat('fast')).text();
    await (await chat('openai/gpt-4o')).text();
    expectNothingLeaked();
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout + added.stderr).toMatch(/route fast.*key.*dropped/);
  }, 30_000);

  it('moving the hub\'s MCP server to their host sends them none of its headers, and says so', async () => {
    const moved = await remote(['mcp', 'add', 'gh', '--url', `${theirs.url}/mcp`]);
    await remote(['mcp', 'test', 'gh']);
    expectNothingLeaked();
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/header.*dropped/);
  }, 30_000);

  it('moving the OIDC issuer to another host drops the client secret, and says so', async () => {
    const moved = await remote(['settings', 'set', 'oidc_issuer', theirs.url]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('oidc_client_secret');
    const secret = await runGw(['settings', 'get', 'oidc_client_secret'], { home: hub.home });
    expect(secret.stdout.trim()).toBe('none');
  });

  it('a literal secret sent remotely is written once and never read back', async () => {
    const added = await remote(['routes', 'add', 'literal', '--target', 'evil2/gpt-4o,key=sk-remote-literal-route-key']);
    expect(added.code, added.stderr).toBe(0);
    const keyed = await remote(['providers', 'add', 'keyed', '--kind', 'openai', '--base-url', `${theirs.url}/v1`, '--api-key', 'sk-remote-literal-provider-key']);
    expect(keyed.code, keyed.stderr).toBe(0);
    const header = await remote(['mcp', 'add', 'hdr', '--url', `${theirs.url}/mcp`, '--header', 'Authorization=Bearer mcp-remote-literal']);
    expect(header.code, header.stderr).toBe(0);
    const reads = await Promise.all([['routes', 'list', '--json'], ['routes', 'list'], ['providers', 'list', '--json'], ['mcp', 'list', '--json']].map((argv) => remote(argv)));
    const shown = reads.map((read) => read.stdout + read.stderr).join('\n') + added.stdout + keyed.stdout + header.stdout;
    for (const literal of ['sk-remote-literal-route-key', 'sk-remote-literal-provider-key', 'mcp-remote-literal']) expect(shown).not.toContain(literal);
    await expect.poll(async () => JSON.stringify(await readAudit(hub.home))).toContain('routes add literal');
    const trail = JSON.stringify(await readAudit(hub.home));
    for (const literal of ['sk-remote-literal-route-key', 'sk-remote-literal-provider-key', 'mcp-remote-literal']) expect(trail).not.toContain(literal);
  }, 30_000);
});

describe('through the console\'s session (the same API, a cookie and x-gw-csrf)', () => {
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    const login = await fetch(`${hub.url}/ui/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: adminToken }) });
    expect(login.status).toBe(303);
    cookie = /gw_admin=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];
    csrf = ((await (await fetch(`${hub.url}/admin/api/whoami`, { headers: { cookie } })).json()) as { csrf: string }).csrf;
    expect(csrf).toBeTruthy();
  });

  const post = (path: string, body: unknown) => fetch(`${hub.url}${path}`, { method: 'POST', headers: { cookie, 'x-gw-csrf': csrf, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it.each([
    [['mcp', 'add', 'c-leak', '--url', 'THEIRS/mcp', '--header-env', 'Authorization=SOME_VAR'], ['mcp', 'test', 'c-leak']],
    [['mcp', 'add', 'c-leak2', '--url', 'THEIRS/mcp', '--header', 'x-leak=env:OPENAI_API_KEY'], ['mcp', 'test', 'c-leak2']],
    [['providers', 'add', 'c-evil', '--kind', 'openai', '--base-url', 'THEIRS/v1', '--api-key-env', 'OPENAI_API_KEY'], null],
  ])('%j is refused (400); their server receives nothing of the hub\'s', async (argv, then) => {
    const answer = await post('/admin/api/commands', { argv: argv.map((argument) => argument.replace('THEIRS', theirs.url)) });
    if (then) await post('/admin/api/commands', { argv: then });
    await (await chat('c-evil/gpt-4o')).text();
    expectNothingLeaked();
    expect(answer.status).toBe(400);
  }, 30_000);

  it('the settings route drops the OIDC client secret when the issuer moves to another host, and says so', async () => {
    for (const argv of [['settings', 'set', 'oidc_issuer', legit.url], ['settings', 'set', 'oidc_client_secret', 'env:GW_OIDC_SECRET']]) expect((await onHub(argv)).code).toBe(0);
    await expect.poll(async () => ((await (await fetch(`${hub.url}/admin/api/settings`, { headers: { cookie } })).json()) as Array<{ name: string; value: string }>)
      .find((setting) => setting.name === 'oidc_client_secret')?.value).toBe('env:GW_OIDC_SECRET');
    const same = await post('/admin/api/settings/oidc_issuer', { value: `${legit.url}/` });
    expect(((await same.json()) as { notes?: string[] }).notes).toBeUndefined();
    const moved = await post('/admin/api/settings/oidc_issuer', { value: theirs.url });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { notes: string[] }).notes.join(' ')).toContain('oidc_client_secret = none');
    expect((await runGw(['settings', 'get', 'oidc_client_secret'], { home: hub.home })).stdout.trim()).toBe('none');
  }, 30_000);

  it('the settings route refuses an env: reference for the OIDC client secret', async () => {
    const answer = await post('/admin/api/settings/oidc_client_secret', { value: 'env:OPENAI_API_KEY' });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain('env:');
  });
});
