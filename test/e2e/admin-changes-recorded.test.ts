// Admin changes made from the shell are records of the trail (issue 13): keys, people,
// teams, tokens, device approvals and denials, settings, policies, DLP rules, routes,
// providers and admin tokens, each naming who made it (the OS user and host) and the command,
// never a secret. Made while a gw serve runs, that gw records them within seconds; made while
// none runs, the command appends its own record before it exits, and the next start neither
// loses nor repeats it. The trail verifies either way.
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw } from '../support/gateway-process.js';
import { auditFile, GatewayJar, readAudit, sleep, type AuditLine } from './helpers.js';

const jar = new GatewayJar();
afterAll(async () => { await jar.stopAll(); });

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const PERSON = 'ada@example.com';

async function gw(home: string, args: string[]): Promise<string> {
  const result = await runGw(args, { home });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout + result.stderr;
}

async function form(url: string, fields: Record<string, string>): Promise<Record<string, string>> {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields) });
  return await response.json() as Record<string, string>;
}

/** Two device logins waiting on the gw at `url`, as `gw login` starts them. */
async function startDeviceLogins(url: string): Promise<Array<{ user_code: string; device_code: string }>> {
  const started = [];
  for (let index = 0; index < 2; index += 1) {
    const answer = await form(`${url}/oauth/device/code`, { client_host: `laptop-${index}` });
    started.push({ user_code: answer.user_code!, device_code: answer.device_code! });
  }
  return started;
}

const COMMANDS = ['teams create', 'people add', 'keys create', 'keys revoke', 'settings set', 'policy set', 'dlp set', 'routes add', 'providers add', 'admin tokens create', 'device approve', 'device deny'];

function adminChanges(records: AuditLine[]): AuditLine[] {
  return records.filter((record) => record.kind === 'admin.change');
}

/** The admin.change records, once one per command is in (or after 10 s, for the assertion to say what is missing). */
async function waitForAdminRecords(home: string, commands: string[]): Promise<AuditLine[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const records = adminChanges(await readAudit(home));
    const seen = new Set(records.map((record) => record.data?.command));
    if (commands.every((command) => seen.has(command)) || Date.now() > deadline) return records;
    await sleep(100);
  }
}

/** Every admin noun, once; returns the secrets printed along the way (none may reach the trail). */
async function administer(home: string, logins: Array<{ user_code: string; device_code: string }>): Promise<string[]> {
  const secrets = logins.map((login) => login.device_code);
  await gw(home, ['teams', 'create', 'eng']);
  await gw(home, ['people', 'add', PERSON, '--team', 'eng']);
  const key = await gw(home, ['keys', 'create', '--team', 'eng', '--name', 'ci']);
  secrets.push(/sk-gw-\w+/.exec(key)![0]);
  await gw(home, ['keys', 'revoke', /vk_[0-9A-Za-z]{12}/.exec(key)![0]]);
  await gw(home, ['settings', 'set', 'enforce_auth', 'on']);
  await gw(home, ['policy', 'set', 'team:eng', '--rpm', '100']);
  await gw(home, ['dlp', 'set', 'github_token', 'redact']);
  await gw(home, ['routes', 'add', 'fast', '--target', 'mock/echo']);
  await gw(home, ['providers', 'add', 'local', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'sk-provider-secret-123456']);
  secrets.push('sk-provider-secret-123456');
  const admin = await gw(home, ['admin', 'tokens', 'create', '--name', 'ops']);
  secrets.push(/gwa-\w+/.exec(admin)![0]);
  await gw(home, ['device', 'approve', logins[0]!.user_code, '--person', PERSON]);
  await gw(home, ['device', 'deny', logins[1]!.user_code]);
  return secrets;
}

function changesOf(records: AuditLine[], command: string): string {
  return JSON.stringify(records.find((record) => record.data?.command === command)?.data?.changes);
}

async function expectEveryNounAndNoSecret(home: string, records: AuditLine[], secrets: string[]): Promise<void> {
  expect(records.map((record) => record.data?.command)).toEqual(expect.arrayContaining(COMMANDS));
  for (const record of records) expect(record.data?.actor).toMatch(/^cli:.+@.+/);
  expect(changesOf(records, 'keys create')).toMatch(/"keys":\{"added":\["vk_[0-9A-Za-z]{12}"\]\}/);
  expect(changesOf(records, 'settings set')).toBe(JSON.stringify({ settings: { changed: ['enforce_auth=true'] } }));
  expect(changesOf(records, 'device approve')).toContain(`approved ${PERSON}`);
  expect(changesOf(records, 'device deny')).toContain('denied');
  // Each change recorded once, whoever moved it.
  const outboxIds = records.map((record) => record.data?.outbox_id);
  expect(new Set(outboxIds).size).toBe(outboxIds.length);
  const trail = await readFile(auditFile(home), 'utf8');
  expect(trail).not.toContain('sk-gw-');
  for (const secret of secrets) expect(trail).not.toContain(secret);
  const state = JSON.parse(await readFile(`${home}/state.json`, 'utf8')) as { admin_outbox?: unknown[] };
  expect(state.admin_outbox).toBeUndefined();
  const verified = await runGw(['audit', 'verify'], { home });
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
}

it('changes made while gw serve runs are recorded by it within seconds, naming the actor; tokens too; no secret reaches the trail', async () => {
  const gateway = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const logins = await startDeviceLogins(gateway.url);
  const secrets = await administer(gateway.home, logins);
  // The approved login takes its personal token once the running gw has seen the approval
  // (it re-reads the state file every 250 ms; on a busy machine that can lag the command).
  await waitForAdminRecords(gateway.home, ['device approve']);
  const issued = await form(`${gateway.url}/oauth/token`, { grant_type: DEVICE_CODE_GRANT, device_code: logins[0]!.device_code });
  expect(issued.access_token).toMatch(/^atu-/);
  secrets.push(issued.access_token!);
  const [token] = JSON.parse(await gw(gateway.home, ['tokens', 'list', '--json'])) as Array<{ id: string }>;
  await gw(gateway.home, ['tokens', 'revoke', token!.id]);
  await gw(gateway.home, ['people', 'remove', PERSON]);
  const records = await waitForAdminRecords(gateway.home, [...COMMANDS, 'tokens revoke', 'people remove']);
  expect(changesOf(records, 'tokens revoke')).toContain(`"tokens":{"changed":["${token!.id}"]}`);
  expect(changesOf(records, 'people remove')).toContain(`"removed":["${PERSON}"]`);
  // The running gw moved them: the records sit between its start and its stop.
  expect(await gateway.stop()).toBe(0);
  const all = await readAudit(gateway.home);
  const start = all.findIndex((record) => record.kind === 'gateway.start');
  const stop = all.findIndex((record) => record.kind === 'gateway.stop');
  for (const record of adminChanges(all)) expect(all.indexOf(record)).toBeGreaterThan(start);
  for (const record of adminChanges(all)) expect(all.indexOf(record)).toBeLessThan(stop);
  await expectEveryNounAndNoSecret(gateway.home, adminChanges(all), secrets);
}, 90_000);

it('changes made while no gw runs are appended by the command itself before it exits; the next start neither loses nor repeats them', async () => {
  const home = await makeHome();
  // Two device logins waiting, started against a gw that has stopped since.
  const first = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const logins = await startDeviceLogins(first.url);
  expect(await first.stop()).toBe(0);
  const secrets = await administer(home, logins);
  // No gw runs: every record is in the trail already, the outbox is empty, the trail verifies.
  const recorded = adminChanges(await readAudit(home));
  await expectEveryNounAndNoSecret(home, recorded, secrets);
  // In the order they were made (teams create is two writes: the team, then its live key).
  expect([...new Set(recorded.map((record) => record.data?.command))]).toEqual(COMMANDS);
  // A command writes no gateway.start/stop of its own.
  const all = await readAudit(home);
  expect(all.filter((record) => record.kind === 'gateway.start')).toHaveLength(1);
  const again = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  expect(await again.stop()).toBe(0);
  const after = adminChanges(await readAudit(home));
  expect(after.map((record) => record.data?.outbox_id)).toEqual(recorded.map((record) => record.data?.outbox_id));
  await expectEveryNounAndNoSecret(home, after, secrets);
}, 90_000);

it('a command on a cut trail makes its change, says its record waits, and the start that accepts the gap records it', async () => {
  const home = await makeHome();
  const first = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  expect(await first.stop()).toBe(0);
  const lines = (await readFile(auditFile(home), 'utf8')).trimEnd().split('\n');
  await writeFile(auditFile(home), `${lines.slice(0, -1).join('\n')}\n`);
  const cut = await readFile(auditFile(home), 'utf8');
  const result = await runGw(['teams', 'create', 'eng'], { home });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain('waits in the state\'s admin outbox for the next gw serve');
  // The command left the cut trail as it was; the change and its entry are in the state.
  expect(await readFile(auditFile(home), 'utf8')).toBe(cut);
  const state = JSON.parse(await readFile(`${home}/state.json`, 'utf8')) as { admin_outbox?: Array<{ command: string }> };
  expect(state.admin_outbox?.map((entry) => entry.command)).toEqual(['teams create', 'teams create']);
  const accepted = await jar.start({ home, args: ['--standalone', '--accept-audit-gap'], env: { GW_LOG_LEVEL: 'warn' } });
  const records = await waitForAdminRecords(home, ['teams create']);
  expect(await accepted.stop()).toBe(0);
  expect(records.map((record) => record.data?.command)).toEqual(['teams create', 'teams create']);
  const kinds = (await readAudit(home)).map((record) => record.kind);
  expect(kinds.indexOf('audit.gap')).toBeLessThan(kinds.indexOf('admin.change'));
}, 60_000);
