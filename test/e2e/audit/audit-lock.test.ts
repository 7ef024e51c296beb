// The trail's lock names its holder's role: a gw command appending its admin changes holds it
// for a moment and is waited for; a gateway holds it for its life and is refused at once.
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLockedError, lockAuditDirectory } from '../../../src/audit/audit-lock.js';
import { openAuditTrail } from '../../../src/audit/audit-trail.js';
import type { AuditRecord } from '../../../src/audit/record.js';
import { verifyFile } from '../../../src/audit/verify-file.js';
import { makeTempHome, readLines, type TempHome } from '../../audit/helpers.js';

/** A live process that is not this one, ending after `ms`. */
function otherProcess(ms: number): { pid: number; exited: Promise<void> } {
  const child = spawn(process.execPath, ['-e', `setTimeout(() => {}, ${ms})`], { stdio: 'ignore' });
  return { pid: child.pid!, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
}

describe('audit lock roles', () => {
  let home: TempHome;
  let lockFile: string;
  beforeEach(async () => {
    home = await makeTempHome();
    await mkdir(home.dir, { recursive: true });
    lockFile = path.join(home.dir, 'audit.lock');
  });
  afterEach(async () => { await home.remove(); });

  it('waits for a live gw command holding the lock, then takes it', async () => {
    const holder = otherProcess(600);
    await writeFile(lockFile, JSON.stringify({ pid: holder.pid, host: hostname(), role: 'cli' }));
    const started = Date.now();
    const lock = await lockAuditDirectory(lockFile);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, role: 'gateway' });
    await lock.release();
    await holder.exited;
  });

  it('refuses at once while a live gateway holds it', async () => {
    const holder = otherProcess(5_000);
    await writeFile(lockFile, JSON.stringify({ pid: holder.pid, host: hostname() }));
    const started = Date.now();
    await expect(lockAuditDirectory(lockFile, 'cli')).rejects.toThrow(AuditLockedError);
    expect(Date.now() - started).toBeLessThan(1_000);
    process.kill(holder.pid);
    await holder.exited;
  });

  it('a cli writer appends without gateway.start or gateway.stop, and the trail still verifies after the next gateway', async () => {
    const cli = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', role: 'cli' });
    await cli.append({ kind: 'admin.change', data: { via: 'cli', command: 'keys create' } });
    await cli.close();
    const gateway = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always' });
    await gateway.close();
    const kinds = (await readLines(home.logFile)).map((line) => (JSON.parse(line) as AuditRecord).kind);
    expect(kinds).toEqual(['admin.change', 'gateway.start', 'gateway.stop']);
    expect(await verifyFile(home.logFile)).toMatchObject({ ok: true, records: 3 });
  });
});
