import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeAuditFileSystem, type AuditFileSystem } from '../../src/audit/audit-file-system.js';
import { AuditWriteError, openAuditTrail, type AuditTrail } from '../../src/audit/audit-trail.js';
import type { AuditRecord } from '../../src/audit/record.js';
import { verifyFile } from '../../src/audit/verify-file.js';
import { makeTempHome, readLines, requestFields, steppingClock, type TempHome } from './helpers.js';

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

function eio(): NodeJS.ErrnoException {
  return Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
}

/**
 * A file system whose log writes fail with ENOSPC while `full` is set (or `failNext` > 0), after
 * writing a few bytes, and whose fdatasync fails with EIO, 20 ms late, while `syncFailNext` > 0.
 */
function fullDisk(): { fileSystem: AuditFileSystem; control: { full: boolean; failNext: number; syncFailNext: number; failures: number } } {
  const control = { full: false, failNext: 0, syncFailNext: 0, failures: 0 };
  const fileSystem: AuditFileSystem = {
    ...nodeAuditFileSystem,
    openLog: async (file) => {
      const log = await nodeAuditFileSystem.openLog(file);
      return {
        ...log,
        write: (data, offset, position) => {
          if (!control.full && control.failNext === 0) return log.write(data, offset, position);
          control.failNext = Math.max(0, control.failNext - 1);
          control.failures += 1;
          log.write(data.subarray(0, offset + 7), offset, position); // leave a torn fragment on disk
          throw enospc();
        },
        datasync: async () => {
          if (control.syncFailNext === 0) return log.datasync();
          control.syncFailNext -= 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw eio();
        },
      };
    },
  };
  return { fileSystem, control };
}

let home: TempHome;
let trail: AuditTrail | undefined;

beforeEach(async () => {
  home = await makeTempHome();
});

afterEach(async () => {
  await trail?.close().catch(() => undefined);
  await home.remove();
});

describe('a write failure (ENOSPC)', () => {
  it('rejects the batch, reports status not ok, and after recovery writes audit.gap; the chain verifies', async () => {
    const { fileSystem, control } = fullDisk();
    trail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', now: steppingClock(), fileSystem });
    await trail.append(requestFields(1));

    control.full = true;
    const failed = await Promise.allSettled([trail.append(requestFields(2)), trail.append(requestFields(3)), trail.append(requestFields(4))]);
    for (const outcome of failed) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(AuditWriteError);
    }
    expect(trail.status()).toEqual({ ok: false, reason: 'cannot write the audit trail: ENOSPC: no space left on device, write' });
    await expect(trail.append(requestFields(5))).rejects.toThrow(/ENOSPC/);
    expect(control.failures).toBeGreaterThanOrEqual(2); // it keeps trying on later appends

    control.full = false;
    const after = await trail.append(requestFields(6));
    expect(trail.status()).toEqual({ ok: true, seq: after.seq });
    await trail.close();

    const records = (await readLines(home.logFile)).map((line) => JSON.parse(line) as AuditRecord);
    expect(records.map((record) => record.kind)).toEqual(['gateway.start', 'request', 'audit.gap', 'request', 'gateway.stop']);
    expect(records[2]!.data).toMatchObject({ lost: 4, reason: 'ENOSPC: no space left on device, write' });
    expect(String(records[2]!.data?.first_ts) > records[1]!.ts).toBe(true);
    expect(String(records[2]!.data?.last_ts) > String(records[2]!.data?.first_ts)).toBe(true);
    expect(records[3]).toMatchObject({ seq: 4, request_id: 'req_6' });
    expect(await verifyFile(home.logFile)).toMatchObject({ ok: true, records: 5, warnings: [] });
  });

  it('re-seals records queued behind a failed batch so they still link', async () => {
    const { fileSystem, control } = fullDisk();
    trail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', now: steppingClock(), fileSystem });
    await trail.flush(); // the writer is idle, so the next append starts a batch alone
    control.syncFailNext = 1;
    const first = trail.append(requestFields(1));
    await new Promise((resolve) => setImmediate(resolve)); // its batch is written; its fdatasync is in flight
    // The first batch has not failed yet, so these are sealed after it: seq 3 and 4 at first.
    const queued = [trail.append(requestFields(2)), trail.append(requestFields(3))];
    expect(queued).toHaveLength(2);
    await expect(first).rejects.toThrow(AuditWriteError);
    const written = await Promise.all(queued);
    expect(written.map((record) => record.seq)).toEqual([3, 4]); // 2 is now the audit.gap
    await trail.close();
    const records = (await readLines(home.logFile)).map((line) => JSON.parse(line) as AuditRecord);
    expect(records[1]).toMatchObject({ seq: 2, kind: 'audit.gap', data: { lost: 1, reason: 'EIO: i/o error, fdatasync' } });
    expect(await verifyFile(home.logFile)).toMatchObject({ ok: true, records: 5, warnings: [] });
  });
});
