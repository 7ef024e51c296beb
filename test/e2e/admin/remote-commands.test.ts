// Governance commands run remotely (issue 18): `gw policy|dlp|routes|providers|budgets|mcp|prices|
// settings … --hub URL` against a real hub does exactly what the same command does to a local
// home: same exit code, same output, same resulting state. Each change is an admin.change
// record naming the admin, with secrets hidden; reads record nothing; what would reach past the
// state into the hub's machine (a path, a database, a program to start) is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, readAudit } from '../helpers.js';

const jar = new GatewayJar();
let hub: GatewayProcess;
let local: string;
let elsewhere: string;
let adminToken: string;

const remote = (argv: string[]) => runGw([...argv, '--hub', hub.url], { home: elsewhere, env: { GW_ADMIN_TOKEN: adminToken } });
const onLocal = (argv: string[]) => runGw(argv, { home: local });

beforeAll(async () => {
  hub = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  adminToken = (await runGw(['admin', 'tokens', 'create', '--name', 'ops@example.com'], { home: hub.home })).stdout.trim();
  expect(adminToken).toMatch(/^gwa-/);
  local = await makeHome('gw-remote-local-');
  elsewhere = await makeHome('gw-remote-laptop-');
  // The running hub reads the CLI's change from state.json on its next poll.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await fetch(`${hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
}, 30_000);

afterAll(async () => { await jar.stopAll(); });

// In order: later rows read what earlier ones changed.
const COMMANDS: string[][] = [
  ['policy', 'set', 'team:eng', '--rpm', '60', '--allow-models', 'mock/*,openai/*'],
  ['policy', 'set', 'team:eng', '--mode', 'bogus'],
  ['policy', 'remove', 'team:nobody'],
  ['policy', 'test', '--team', 'eng', '--model', 'anthropic/claude-sonnet-4'],
  ['dlp', 'add', 'ticket_id', '--pattern', 'TICKET-[0-9]{6}', '--action', 'redact'],
  ['dlp', 'set', 'email', 'block', '--scope', 'team:eng'],
  ['dlp', 'output', 'on', '--scope', 'team:eng'],
  ['dlp', 'test', 'see TICKET-123456 now', '--team', 'eng'],
  ['routes', 'add', 'fast', '--target', 'mock/echo', '--retries', '1'],
  ['routes', 'test', 'fast'],
  ['budgets', 'set', 'team:eng', '--amount', '100', '--period', 'month'],
  ['prices', 'set', 'mock/echo', '--input', '3', '--output', '15'],
  ['prices', 'show', 'mock/echo'],
  ['providers', 'add', 'other', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'sk-other-0123456789'],
  ['mcp', 'add', 'docs', '--url', 'http://127.0.0.1:9/mcp'],
  ['settings', 'set', 'limits_when_redis_down', 'closed'],
  ['routes', 'add', 'slow', '--target', 'mock/slow'],
  ['routes', 'remove', 'slow'],
];

describe('each command, remotely and locally', () => {
  it.each(COMMANDS.map((argv) => [argv.join(' '), argv] as const))('gw %s: same exit code, output and errors', async (_name, argv) => {
    const [here, there] = [await onLocal(argv), await remote(argv)];
    expect({ code: there.code, stdout: there.stdout, stderr: there.stderr }).toEqual({ code: here.code, stdout: here.stdout, stderr: here.stderr });
  });

  it.each([
    ['policy', 'list'], ['dlp', 'list', '--scope', 'team:eng'], ['routes', 'list'], ['budgets', 'list'], ['prices', 'list'], ['providers', 'list'], ['mcp', 'list'], ['settings', 'get'],
  ].map((argv) => [argv.join(' '), argv] as const))('afterwards, gw %s --json reads the same state on the hub as locally', async (_name, argv) => {
    const json = argv[0] === 'settings' ? [] : ['--json'];
    const [here, onHub] = [await onLocal([...argv, ...json]), await runGw([...argv, ...json], { home: hub.home })];
    expect(onHub.code).toBe(0);
    expect(onHub.stdout).toEqual(here.stdout);
    expect(onHub.stdout.length).toBeGreaterThan(20);
  });
});

describe('the record of it', () => {
  it('each change that went through is an admin.change naming the admin and the command; reads and refusals are not', async () => {
    // A record lands just after its answer: wait for the last one.
    const changesNow = async () => (await readAudit(hub.home)).filter((record) => record.kind === 'admin.change' && record.operation === 'commands.run');
    await expect.poll(async () => (await changesNow()).length).toBeGreaterThanOrEqual(12);
    const changes = await changesNow();
    expect(changes.map((record) => record.data?.action)).toEqual([
      'policy.set', 'dlp.add', 'dlp.set', 'dlp.output', 'routes.add', 'budgets.set', 'prices.set', 'providers.add', 'mcp.add', 'settings.set', 'routes.add', 'routes.remove',
    ]);
    expect(changes[0]!.data).toMatchObject({ admin_name: 'ops@example.com', via: 'api', target: 'team:eng', command: 'policy set team:eng --rpm 60 --allow-models mock/*,openai/*' });
  });

  it('a key or header given on the command line reaches the hub\'s state, never its trail', async () => {
    const added = await remote(['providers', 'add', 'keyed', '--kind', 'openai', '--api-key', 'sk-remote-secret-0123456789', '--base-url', 'http://user:hunter2@127.0.0.1:9/v1']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout + added.stderr).not.toContain('sk-remote-secret-0123456789');
    expect(added.stdout).not.toContain('hunter2');
    const mcp = await remote(['mcp', 'add', 'private', '--url', 'http://127.0.0.1:9/mcp', '--header', 'Authorization=Bearer mcp-secret-token']);
    expect(mcp.code, mcp.stderr).toBe(0);
    await expect.poll(async () => JSON.stringify(await readAudit(hub.home))).toContain('mcp add private');
    const trail = JSON.stringify(await readAudit(hub.home));
    for (const secret of ['sk-remote-secret-0123456789', 'hunter2', 'mcp-secret-token']) expect(trail).not.toContain(secret);
    expect(trail).toContain('providers add keyed --kind openai --api-key *** --base-url http://user:***@127.0.0.1:9/v1');
    const listed = await runGw(['providers', 'list', '--json'], { home: hub.home });
    expect(listed.stdout).toContain('keyed');
  });
});

describe('what stays on the hub\'s own shell', () => {
  it.each([
    [['dlp', 'test', '--file', '/etc/passwd'], '--file names something on the hub\'s machine'],
    [['policy', 'list', '--store', 'postgres://db/gw'], '--store names something on the hub\'s machine'],
    [['mcp', 'add', 'shell', '--command', 'sh -c id'], 'an MCP server over stdio (--command) runs a program on the hub'],
    [['settings', 'set', 'audit_witness', '/root/.ssh/authorized_keys'], 'audit_witness as a file names a path on the hub\'s machine'],
  ])('gw %j --hub is refused before anything runs', async (argv, reason) => {
    const result = await remote(argv);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(reason);
    const settings = await runGw(['settings', 'get', 'audit_witness'], { home: hub.home });
    expect(settings.stdout).toContain('none');
    expect((await runGw(['mcp', 'list', '--json'], { home: hub.home })).stdout).not.toContain('shell');
  });

  it('a command that is not a governance command is refused by the hub\'s API', async () => {
    const answer = await fetch(`${hub.url}/admin/api/commands`, {
      method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ argv: ['serve', '--port', '1'] }),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain('"serve --port" is not run remotely');
  });

  it('without an admin token nothing is sent; with a wrong one the hub refuses (exit 2)', async () => {
    const missing = await runGw(['policy', 'set', 'team:eng', '--rpm', '1', '--hub', hub.url], { home: await makeHome() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('gw login --admin');
    const wrong = await runGw(['policy', 'set', 'team:eng', '--rpm', '1', '--hub', hub.url], { home: await makeHome(), env: { GW_ADMIN_TOKEN: 'gwa-notarealtokennotarealtokennotarealtokenabc' } });
    expect(wrong.code).toBe(2);
    expect((await runGw(['policy', 'list', '--json'], { home: hub.home })).stdout).toContain('"requests_per_minute": 60');
  });
});
