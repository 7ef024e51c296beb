// The approve command the verification page shows is pasted into a shell by the hub admin
// (issue 26, deliverable 7): with a device's claimed email that holds shell code, the real
// command, run by a real sh with the real gw on its PATH, must run gw with that email as one
// argument and run nothing else.
import { execFile } from 'node:child_process';
import { access, mkdtemp, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GW_BIN } from '../../support/gateway-process.js';
import { startHubRig, type HubRig } from './support.js';

const run = promisify(execFile);
let rig: HubRig;
let bin: string;

beforeAll(async () => {
  rig = await startHubRig();
  bin = await mkdtemp(path.join(os.tmpdir(), 'gw-bin-'));
  await symlink(GW_BIN, path.join(bin, 'gw'));
}, 60_000);
afterAll(async () => { await rig?.close(); });

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

async function approveCommandFor(claimed: string): Promise<string> {
  const started = await (await fetch(`${rig.hub.url}/oauth/device/code`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=gw-cli' })).json() as { user_code: string };
  const entry = await fetch(`${rig.hub.url}/device`);
  const cookie = entry.headers.getSetCookie()[0]!.split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await entry.text())![1]!;
  const page = await fetch(`${rig.hub.url}/device`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ csrf, user_code: started.user_code, action: 'claim', email: claimed }).toString(),
  });
  expect(page.status).toBe(200);
  return unescapeHtml(/data-testid="approve-command">([^<]*)</.exec(await page.text())![1]!);
}

it.each([
  // No spaces fit in an email: a bare redirection creates the marker file in the shell's folder.
  ['a command substitution', 'x$(>pwned)y@example.com'],
  ['backquotes', 'x`>pwned`y@example.com'],
  ['a quote and a semicolon', "o'neil;>pwned;'@example.com"],
])('the approve command for a claimed email with %s runs gw with that email and nothing else', async (_what, claimed) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-paste-'));
  const marker = path.join(dir, 'pwned');
  const command = await approveCommandFor(claimed);
  expect(command).toMatch(/^gw device approve [B-Z]{4}-[B-Z]{4} --person /);
  // Pasted into sh in a folder of its own, with the hub's home in the environment.
  const result = await run('sh', ['-c', command], { cwd: dir, env: { PATH: `${bin}:${process.env.PATH}`, GW_HOME: rig.hub.home } }).then(
    () => ({ stderr: '', failed: false }), (error: { stderr: string }) => ({ stderr: error.stderr, failed: true }));
  await expect(access(marker)).rejects.toThrow();
  // gw got the email as one argument: no such person on this hub, named exactly (lower-cased as stored).
  expect(result.failed).toBe(true);
  expect(result.stderr).toContain(`no person ${claimed.toLowerCase()} on this hub`);
}, 30_000);
