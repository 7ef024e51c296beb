// runGwInProcess (test/support/gateway-process.ts) runs setup commands inside the test's own
// process instead of starting `gw`: it must answer exactly as the real process does (stdout,
// stderr, exit code, the state left behind) and leave nothing of one call in the next.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHome, runGw, runGwInProcess, runGwSetup, type CliResult } from '../../support/gateway-process.js';

/** The same steps on two fresh homes, one through each runner; random keys, ids and the home path made alike. */
async function bothWays(steps: string[][]): Promise<{ spawned: CliResult[]; inProcess: CliResult[] }> {
  const [spawnedHome, inProcessHome] = [await makeHome('gw-spawned-'), await makeHome('gw-inproc-')];
  const same = (home: string) => (result: CliResult): CliResult => {
    const tidy = (text: string) => text.split(home).join('<home>').replace(/sk-gw-[0-9A-Za-z]+(…[0-9A-Za-z]+)?/g, '<key>').replace(/vk_[0-9A-Za-z]+/g, '<id>')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
    return { code: result.code, stdout: tidy(result.stdout), stderr: tidy(result.stderr) };
  };
  const spawned: CliResult[] = [];
  const inProcess: CliResult[] = [];
  for (const step of steps) {
    spawned.push(same(spawnedHome)(await runGw(step, { home: spawnedHome })));
    inProcess.push(same(inProcessHome)(await runGwInProcess(step, { home: inProcessHome })));
  }
  const state = async (home: string) => Object.keys(JSON.parse(await readFile(path.join(home, 'state.json'), 'utf8')) as object);
  expect(await state(inProcessHome)).toEqual(await state(spawnedHome));
  return { spawned, inProcess };
}

describe('runGwInProcess answers as the gw process does', () => {
  it('for changes, listings, refusals and usage errors, step by step', async () => {
    const { spawned, inProcess } = await bothWays([
      ['teams', 'create', 'eng'],
      ['teams', 'create', 'eng'], // exists: exit 1 and one line
      ['keys', 'create', '--team', 'eng', '--name', 'ci'],
      ['keys', 'create', '--team', 'nobody'],
      ['keys', 'list', '--json'],
      ['policy', 'set', 'team:eng', '--rpm', '60'],
      ['policy', 'set', 'team:eng', '--rpm', 'many'],
      ['policy', 'list'],
      ['settings', 'get'],
      ['prices', 'set', 'acme/m1', '--input', '1', '--output', '2'],
      ['prices', 'list', '--json'],
      ['kyes', 'list'], // a typo: commander's error and the root help, exit 2
      ['keys', '--help'],
      ['--version'],
    ]);
    expect(inProcess).toEqual(spawned);
    // The steps above did what they say (the comparison alone would pass on two identical failures).
    expect(spawned.map((result) => result.code)).toEqual([0, 1, 0, 1, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0]);
  });

  it('leaves no state of a call in the process or the next call', async () => {
    const before = { env: { ...process.env }, cwd: process.cwd(), exitCode: process.exitCode };
    const home = await makeHome();
    // --store sets GW_DATABASE_URL for the command's own environment only.
    const refused = await runGwInProcess(['--store', 'mysql://db/gw', 'teams', 'list'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--store takes a postgres:// URL');
    expect(await runGwInProcess(['teams', 'create', 'one'], { home })).toMatchObject({ code: 0, stderr: '' });
    // Each call's output is its own; the refusal above did not reach this one.
    const listed = await runGwInProcess(['teams', 'list'], { home });
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toContain('one');
    expect(listed.stdout).not.toContain('postgres');
    // Calls at once run one after the other, each with its own output.
    const [first, second] = await Promise.all([runGwInProcess(['teams', 'create', 'two'], { home }), runGwInProcess(['teams', 'create', 'two'], { home })]);
    expect([first.code, second.code].sort()).toEqual([0, 1]);
    expect({ env: process.env, cwd: process.cwd(), exitCode: process.exitCode }).toEqual(before);
  });

  it('runGwSetup keeps a real process for the commands that are the process (serve, run, token, login, audit)', async () => {
    const home = await makeHome();
    // audit verify is not in the in-process list: a real child, which finds no trail in an empty home.
    const verified = await runGwSetup(['audit', 'verify'], { home });
    expect(verified.code).not.toBe(0);
    expect((await runGwSetup(['teams', 'create', 'x'], { home })).code).toBe(0);
  });
});
