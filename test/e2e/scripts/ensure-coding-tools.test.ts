// scripts/ensure-coding-tools.sh keeps one set of coding tools per manifest: a clone whose manifest
// went back to an earlier pin switches to that set, and a set installed for the same manifest in a
// sibling cache is copied as hard links, neither downloading anything (the reinstall cost CI 2.5 min).
// The tools here are small scripts; `npm` on the PATH fails the test if the script calls it.
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHome } from '../../support/gateway-process.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts', 'ensure-coding-tools.sh');
const TOOLS = ['claude', 'codex', 'gemini', 'opencode'];

async function manifestStamp(): Promise<string> {
  const text = await readFile(path.join(ROOT, 'test', 'e2e', 'coding-tools', 'tools', 'package.json'));
  return createHash('sha256').update(text).digest('hex');
}

/** A folder holding node_modules/.bin with each tool answering --version, and its stamp. */
async function writeToolSet(folder: string, stamp: string): Promise<void> {
  const bin = path.join(folder, 'node_modules', '.bin');
  await mkdir(bin, { recursive: true });
  for (const tool of TOOLS) {
    await writeFile(path.join(bin, tool), `#!/bin/sh\necho "${tool} ${stamp.slice(0, 8)}"\n`);
    await chmod(path.join(bin, tool), 0o755);
  }
  await writeFile(path.join(folder, '.installed'), `${stamp}\n`);
}

/** Runs the script with a PATH whose npm fails loudly. */
async function ensure(dir: string): Promise<{ code: number; stderr: string }> {
  const fakeBin = await makeHome('gw-fake-npm-');
  await writeFile(path.join(fakeBin, 'npm'), '#!/bin/sh\necho "npm was called: $*" >&2\nexit 3\n');
  await chmod(path.join(fakeBin, 'npm'), 0o755);
  const env = { PATH: `${fakeBin}:${process.env.PATH ?? ''}`, HOME: path.dirname(dir), GW_CODING_TOOLS_DIR: dir };
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT], { env }, (error, _stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr });
    });
  });
}

describe('scripts/ensure-coding-tools.sh keeps a set per manifest', () => {
  it('switches back to the set a manifest had, without npm, and keeps the set it leaves', async () => {
    const stamp = await manifestStamp();
    const dir = path.join(await makeHome('gw-tools-cache-'), 'coding-tools');
    // The cache as it was: one real node_modules, installed for other pins.
    await writeToolSet(dir, 'f'.repeat(64));
    await writeToolSet(path.join(dir, 'sets', stamp), stamp);
    const first = await ensure(dir);
    expect(first.stderr).not.toContain('npm was called');
    expect(first.code).toBe(0);
    expect(await readlink(path.join(dir, 'node_modules'))).toBe(`sets/${stamp}/node_modules`);
    expect((await readFile(path.join(dir, '.installed'), 'utf8')).trim()).toBe(stamp);
    expect((await readFile(path.join(dir, 'sets', 'f'.repeat(64), '.installed'), 'utf8')).trim()).toBe('f'.repeat(64));
    expect(await readFile(path.join(dir, 'sets', 'f'.repeat(64), 'node_modules', '.bin', 'codex'), 'utf8')).toContain('codex ffffffff');
    // The manifest's set in use answers; a second run does nothing.
    expect(await readFile(path.join(dir, 'node_modules', '.bin', 'codex'), 'utf8')).toContain(`codex ${stamp.slice(0, 8)}`);
    expect(await ensure(dir)).toEqual({ code: 0, stderr: '' });
  });

  it('copies the set a sibling cache installed for the same manifest as hard links', async () => {
    const stamp = await manifestStamp();
    const parent = await makeHome('gw-tools-cache-');
    await writeToolSet(path.join(parent, 'coding-tools-next'), stamp);
    const dir = path.join(parent, 'coding-tools');
    const run = await ensure(dir);
    expect(run.stderr).not.toContain('npm was called');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('reusing the set installed for this manifest');
    const copied = await stat(path.join(dir, 'node_modules', '.bin', 'claude'));
    const original = await stat(path.join(parent, 'coding-tools-next', 'node_modules', '.bin', 'claude'));
    expect(copied.ino).toBe(original.ino);
  });
});
