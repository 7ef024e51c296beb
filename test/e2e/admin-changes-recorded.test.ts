// Admin changes made from the shell are records of the trail (issue 13): keys, people,
// teams, tokens, device approvals, settings, policies, DLP rules, routes and providers, each
// naming who made it (the OS user and host) and the command, never a secret. Made while a
// gw serve runs, they are recorded within seconds; made while none runs, the next start
// records them first. The trail verifies either way.
import { afterAll, expect, it } from 'vitest';
import { makeHome, runGw } from '../support/gateway-process.js';
import { GatewayJar, readAudit, sleep, type AuditLine } from './helpers.js';

const jar = new GatewayJar();
afterAll(async () => { await jar.stopAll(); });

async function gw(home: string, args: string[]): Promise<string> {
  const result = await runGw(args, { home });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout + result.stderr;
}

const COMMANDS = ['teams create', 'people add', 'keys create', 'keys revoke', 'settings set', 'policy set', 'routes add', 'providers add', 'admin tokens create'];

/** The admin.change records, once one per command is in (or after 10 s, for the assertion to say what is missing). */
async function adminRecords(home: string): Promise<AuditLine[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const records = (await readAudit(home)).filter((record) => record.kind === 'admin.change');
    const seen = new Set(records.map((record) => record.data?.command));
    if (COMMANDS.every((command) => seen.has(command)) || Date.now() > deadline) return records;
    await sleep(100);
  }
}

/** Every admin noun, once; returns the secrets printed along the way (none may reach the trail). */
async function administer(home: string): Promise<string[]> {
  const secrets: string[] = [];
  await gw(home, ['teams', 'create', 'eng']);
  await gw(home, ['people', 'add', 'ada@example.com', '--team', 'eng']);
  const key = await gw(home, ['keys', 'create', '--team', 'eng', '--name', 'ci']);
  secrets.push(/sk-gw-\w+/.exec(key)![0]);
  await gw(home, ['keys', 'revoke', /vk_[0-9A-Za-z]{12}/.exec(key)![0]]);
  await gw(home, ['settings', 'set', 'enforce_auth', 'on']);
  await gw(home, ['policy', 'set', 'team:eng', '--rpm', '100']);
  await gw(home, ['routes', 'add', 'fast', '--target', 'mock/echo']);
  await gw(home, ['providers', 'add', 'local', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'sk-provider-secret-123456']);
  secrets.push('sk-provider-secret-123456');
  const admin = await gw(home, ['admin', 'tokens', 'create', '--name', 'ops']);
  secrets.push(/gwa-\w+/.exec(admin)![0]);
  return secrets;
}

function expectEveryNoun(records: AuditLine[]): void {
  const commands = records.map((record) => record.data?.command);
  expect(commands).toEqual(expect.arrayContaining(COMMANDS));
  for (const record of records) expect(record.data?.actor).toMatch(/^cli:.+@.+/);
  const created = records.find((record) => record.data?.command === 'keys create')!;
  expect(JSON.stringify(created.data?.changes)).toMatch(/"keys":\{"added":\["vk_[0-9A-Za-z]{12}"\]\}/);
  const settings = records.find((record) => record.data?.command === 'settings set')!;
  expect(settings.data?.changes).toEqual({ settings: { changed: ['enforce_auth=true'] } });
}

it('changes made while gw serve runs are recorded within seconds, naming the actor; no secret reaches the trail', async () => {
  const gateway = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const secrets = await administer(gateway.home);
  const records = await adminRecords(gateway.home);
  expectEveryNoun(records);
  expect(await gateway.stop()).toBe(0);
  const trail = JSON.stringify(await readAudit(gateway.home));
  for (const secret of secrets) expect(trail).not.toContain(secret);
  const state = JSON.parse(await (await import('node:fs/promises')).readFile(`${gateway.home}/state.json`, 'utf8')) as { admin_outbox?: unknown[] };
  expect(state.admin_outbox).toBeUndefined();
  const verified = await runGw(['audit', 'verify'], { home: gateway.home });
  expect(verified.code, verified.stdout).toBe(0);
}, 60_000);

it('changes made while no gw runs wait in the outbox and are the first records of the next start', async () => {
  const home = await makeHome();
  await administer(home);
  const gateway = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const records = await adminRecords(home);
  expectEveryNoun(records);
  expect(await gateway.stop()).toBe(0);
  const verified = await runGw(['audit', 'verify'], { home });
  expect(verified.code, verified.stdout).toBe(0);
}, 60_000);
