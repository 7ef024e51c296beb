import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAuditTrail } from '../../src/audit/audit-trail.js';
import { CliExit, type CliContext } from '../../src/cli/cli-context.js';
import { registerAuditCommand } from '../../src/cli/commands/audit.js';
import { makeTempHome, readLines, requestFields, steppingClock, type TempHome } from './helpers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let home: TempHome;

async function run(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const context: CliContext = {
    stdout: { write: (text) => void (stdout += text) },
    stderr: { write: (text) => void (stderr += text) },
    env: {},
    home: (flag) => path.resolve(flag ?? home.home),
  };
  const program = new Command('gw').exitOverride().configureOutput({ writeOut: context.stdout.write, writeErr: context.stderr.write });
  registerAuditCommand(program, context);
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error instanceof CliExit) return { code: error.exitCode, stdout, stderr: stderr + error.message };
    if (error instanceof CommanderError) return { code: 2, stdout, stderr };
    throw error;
  }
}

beforeEach(async () => {
  home = await makeTempHome();
  const trail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', now: steppingClock() });
  await trail.append(requestFields(1));
  await trail.close();
});

afterEach(async () => {
  await home.remove();
});

describe('gw audit verify', () => {
  it('exits 0 on an intact trail and names the head', async () => {
    const { code, stdout } = await run(['audit', 'verify', '--home', home.home]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^audit trail intact: 3 records, head seq 3 hash [0-9a-f]{8}…\n$/);
  });

  it('exits 1 and names the first bad record and why', async () => {
    const lines = await readLines(home.logFile);
    lines[1] = lines[1]!.replace('"status":200', '"status":404');
    await writeFile(home.logFile, `${lines.join('\n')}\n`);
    const { code, stdout } = await run(['audit', 'verify', '--file', home.logFile]);
    expect(code).toBe(1);
    expect(stdout).toBe('audit trail BROKEN at line 2 (seq 2): record 2: hash mismatch (edited)\n');
  });

  it('exits 1 when the tail was cut (caught by the checkpoint)', async () => {
    const lines = await readLines(home.logFile);
    await writeFile(home.logFile, `${lines.slice(0, 2).join('\n')}\n`);
    const { code, stdout } = await run(['audit', 'verify', '--home', home.home]);
    expect(code).toBe(1);
    expect(stdout).toContain('truncated: log ends at seq 2 but checkpoint says 3');
  });

  it('exits 1 when the checkpoint is not valid', async () => {
    await writeFile(path.join(home.dir, 'checkpoint.json'), '{"seq":3');
    const { code, stdout } = await run(['audit', 'verify', '--home', home.home]);
    expect(code).toBe(1);
    expect(stdout).toBe('audit trail BROKEN: checkpoint is not valid JSON\n');
  });

  it('exits 2 when the file cannot be read, and on bad usage', async () => {
    const missing = await run(['audit', 'verify', '--file', path.join(home.home, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.jsonl: ENOENT/);
    expect((await run(['audit', 'verify', '--bogus'])).code).toBe(2);
  });

  it('--json prints one JSON object', async () => {
    const intact = await run(['audit', 'verify', '--home', home.home, '--json']);
    expect(intact.code).toBe(0);
    const parsed = JSON.parse(intact.stdout) as { ok: boolean; records: number; head: { seq: number }; warnings: string[] };
    expect(parsed).toMatchObject({ ok: true, records: 3, head: { seq: 3 }, warnings: [] });

    await writeFile(home.logFile, 'not json\n');
    const broken = await run(['audit', 'verify', '--home', home.home, '--json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, firstBad: { line: 1, reason: 'line 1: not a JSON object (edited or torn)' } });

    const unreadable = await run(['audit', 'verify', '--file', path.join(home.home, 'none'), '--json']);
    expect(unreadable.code).toBe(2);
    expect(JSON.parse(unreadable.stdout)).toMatchObject({ ok: false });
  });
});
