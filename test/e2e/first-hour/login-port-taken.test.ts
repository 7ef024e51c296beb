// `gw login` on a machine whose sidecar port is taken (here by the hub itself, as on
// a one-machine trial) tells the free port to use, and `gw serve` as the sidecar
// then fails with the exact command to run and no stray JSON log line after it
// (issue 30, deliverable 5). GW_PORT stands in for 8080: tests never use fixed ports.
// The command gw login prints carries the login's --home, runs as printed, and gw token
// with that home then finds the sidecar on its port with no GW_URL (issue 40).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, cleanEnv, makeHome, runGw } from '../../support/gateway-process.js';
import { waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';

let rig: HubRig;
beforeAll(async () => { rig = await startHubRig(); }, 60_000);
afterAll(async () => { await rig?.close(); });

function serve(args: string[], env: NodeJS.ProcessEnv): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [GW_BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
  return Object.assign(child, { output: () => output });
}

function serveToEnd(home: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [GW_BIN, 'serve', '--home', home], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

describe('the sidecar port taken by the hub', () => {
  it('gw login names a free port, and gw serve says the exact command, with no stray log line', async () => {
    const hubPort = new URL(rig.hub.url).port;
    const env = { ...NO_KEYCHAIN, GW_PORT: hubPort };
    const laptop = await makeHome('gw-laptop-');
    const login = startLogin(rig.hub.url, laptop, env);
    await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
    expect(await login.exited).toBe(0);
    const said = /port (\d+) is taken[^\n]*\n[^\n]*gw serve --port (\d+)/.exec(login.stderr());
    expect(said, login.stderr()).not.toBeNull();
    expect(said![1]).toBe(hubPort);
    expect(said![2]).not.toBe(hubPort);
    expect(login.stderr()).toContain(`gw serve --port ${said![2]} --home ${laptop}:`);
    expect(login.stderr()).not.toContain(`sidecar on http://127.0.0.1:${hubPort}`);

    const served = await serveToEnd(laptop, env);
    expect(served.code).toBe(1);
    expect(served.stderr).toMatch(new RegExp(`port ${hubPort} on 127\\.0\\.0\\.1 is already in use[^\\n]*gw serve --port \\d+`));
    const lines = served.stderr.trim().split('\n');
    expect(lines.filter((line) => line.startsWith("{")), JSON.stringify(lines)).toEqual([]);
    expect(served.stderr).toContain(`--home ${laptop};`);

    // The printed command, as printed; then gw token with the same home finds it, with no GW_URL.
    const printed = /Now run (gw serve [^:\n]+):/.exec(login.stderr())?.[1]?.split(' ').slice(1) ?? [];
    expect(printed).toEqual(['serve', '--port', said?.[2], '--home', laptop]);
    const sidecar = serve(printed, env);
    try {
      await waitUntil(() => sidecar.output().includes('sidecar mode, listening on'), { timeoutMs: 20_000, what: 'the sidecar' });
      const token = await runGw(['token', '--home', laptop], { env: cleanEnv(NO_KEYCHAIN) });
      expect(token.stderr).toBe('');
      expect(token.stdout.trim()).toBe('gw-sidecar');
    } finally {
      sidecar.kill('SIGTERM');
      await new Promise((resolve) => sidecar.once('close', resolve));
    }
  }, 90_000);
});
