// The serve banner's lines to paste quote what gw does not choose itself (src/shell-quote.ts):
// a model name a sidecar learns from its hub, a home folder, the hub's public_url. Each line
// runs under a real sh with the tools replaced by stubs that print their arguments: every
// argument arrives whole, and nothing in a value runs.
import { execFile } from 'node:child_process';
import { access, chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { describeSidecarStart, describeStart } from '../../../src/cli/serve-banner.js';
import type { RunningGateway } from '../../../src/gateway/start-gateway.js';

const run = promisify(execFile);
const HOSTILE_MODEL = 'gpt-4o$(>pwned)`>pwned2`';

async function stubs(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-stubs-'));
  for (const tool of ['gw', 'claude', 'codex']) {
    await writeFile(path.join(dir, tool), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done\n`);
    await chmod(path.join(dir, tool), 0o755);
  }
  return dir;
}

async function runLine(line: string, bin: string, cwd: string): Promise<string[]> {
  const { stdout } = await run('sh', ['-c', line.replace(/^\s+\S+( \S+)?\s{2,}/, '').replace(/\s+#.*$/, '')], { cwd, env: { PATH: `${bin}:${process.env.PATH}` } });
  return stdout.split('\n').slice(0, -1);
}

it('a sidecar\'s lines pass a hostile model name and home as single arguments, running nothing', async () => {
  const bin = await stubs();
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-cwd-'));
  const home = path.join(cwd, "it's home $(>pwned3)");
  const gateway = { url: 'http://127.0.0.1:18080', providerNames: ['hub'], providerWarnings: [] } as unknown as RunningGateway;
  const banner = describeSidecarStart(gateway, home, { hub: 'https://hub.example', token: 'atu-x', person: 'a@example.com', team: 'eng', source: 'login.json' }, [HOSTILE_MODEL], { PATH: bin });
  const claude = banner.split('\n').find((line) => line.includes('Claude Code'))!;
  expect(await runLine(claude, bin, cwd)).toEqual(['--model', HOSTILE_MODEL]);
  const gemini = banner.split('\n').find((line) => line.includes('Gemini CLI'))!;
  expect(await runLine(gemini, bin, cwd)).toEqual(['run', '--home', home, 'gemini', '-m', HOSTILE_MODEL]);
  for (const marker of ['pwned', 'pwned2', 'pwned3']) await expect(access(path.join(cwd, marker))).rejects.toThrow();
});

it('the hub\'s gw login line quotes a public_url with shell characters', async () => {
  const bin = await stubs();
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-cwd-'));
  const publicUrl = 'https://hub.example/$(>pwned)';
  const state = { snapshot: () => ({ settings: { device_login: true, public_url: publicUrl } }) };
  const gateway = { url: 'http://127.0.0.1:18080', providerNames: ['mock'], providerWarnings: [], storage: 'state in x', bootstrapKey: null, services: { state } } as unknown as RunningGateway;
  const line = describeStart(gateway, '/tmp/gw-home', [], { PATH: bin }).split('\n').find((entry) => entry.includes('gw login --hub'))!;
  expect(await run('sh', ['-c', line.split('with:')[1]!.trim()], { cwd, env: { PATH: `${bin}:${process.env.PATH}` } }).then((result) => result.stdout.split('\n').slice(0, -1))).toEqual(['login', '--hub', publicUrl]);
  await expect(access(path.join(cwd, 'pwned'))).rejects.toThrow();
});
