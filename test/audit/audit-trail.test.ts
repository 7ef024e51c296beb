import { readFile, readdir, stat, writeFile, appendFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditClosedError, AuditLockedError, openAuditTrail, type AuditTrail } from '../../src/audit/audit-trail.js';
import { AuditRecordError } from '../../src/audit/chain.js';
import { isSignatureValid, isSignedCheckpoint, parseCheckpoint, trailIdOf, type Checkpoint } from '../../src/audit/checkpoint.js';
import type { AuditRecord } from '../../src/audit/record.js';
import { verifyFile } from '../../src/audit/verify-file.js';
import { makeTempHome, readLines, requestFields, steppingClock, type TempHome } from './helpers.js';

let home: TempHome;
const opened: AuditTrail[] = [];

async function open(fsync: 'always' | 'interval' | 'never' = 'always'): Promise<AuditTrail> {
  const trail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync, now: steppingClock() });
  opened.push(trail);
  return trail;
}

beforeEach(async () => {
  home = await makeTempHome();
});

async function expectSignedByHome(checkpoint: Checkpoint): Promise<void> {
  if (!isSignedCheckpoint(checkpoint)) throw new Error('expected a signed (v 2) checkpoint');
  expect(isSignatureValid(checkpoint)).toBe(true);
  expect(checkpoint.public_key).toBe((await readFile(path.join(home.home, 'audit.pub'), 'utf8')).trim());
  const [first] = await readLines(home.logFile);
  expect(checkpoint.trail).toBe(trailIdOf((JSON.parse(first!) as { hash: string }).hash));
}

afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((trail) => trail.close()));
  await home.remove();
});

describe('openAuditTrail', () => {
  it('creates the folder 0700, the Ed25519 signing key 0600 and audit.pub, the log 0600, and starts with gateway.start', async () => {
    const trail = await open();
    expect((await stat(home.dir)).mode & 0o777).toBe(0o700);
    const signingKey = path.join(home.home, 'audit-signing.key');
    expect((await stat(signingKey)).mode & 0o777).toBe(0o600);
    expect(await readFile(signingKey, 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect((await readFile(path.join(home.home, 'audit.pub'), 'utf8')).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(stat(home.keyPath)).rejects.toThrow(/ENOENT/); // the legacy HMAC key is no longer made
    expect((await stat(home.logFile)).mode & 0o777).toBe(0o600);
    expect(trail.status()).toEqual({ ok: true, seq: 1 });
    const [first] = await readLines(home.logFile);
    expect(JSON.parse(first!)).toMatchObject({ seq: 1, kind: 'gateway.start', v: 1, ts: '2026-01-01T00:00:00.001Z' });
  });

  it('continues seq and prev after a reopen, ending each run with gateway.stop', async () => {
    const first = await open();
    await first.append(requestFields(1));
    await first.close();
    await first.close(); // idempotent
    const second = await open();
    const record = await second.append(requestFields(2));
    expect(record.seq).toBe(5);
    await second.close();
    const kinds = (await readLines(home.logFile)).map((line) => (JSON.parse(line) as AuditRecord).kind);
    expect(kinds).toEqual(['gateway.start', 'request', 'gateway.stop', 'gateway.start', 'request', 'gateway.stop']);
    expect(await verifyFile(home.logFile)).toMatchObject({ ok: true, records: 6, warnings: [] });
  });

  it('refuses a second opener of the same folder with AuditLockedError, and allows it after close', async () => {
    const trail = await open();
    await expect(openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'never' })).rejects.toThrow(AuditLockedError);
    await trail.close();
    const again = await open();
    expect(again.status().ok).toBe(true);
  });

  it('rejects appends after close, and records with floats without using a seq', async () => {
    const trail = await open();
    await expect(trail.append({ kind: 'request', latency_ms: 1.5 })).rejects.toThrow(AuditRecordError);
    expect((await trail.append(requestFields(1))).seq).toBe(2);
    await trail.close();
    await expect(trail.append(requestFields(2))).rejects.toThrow(AuditClosedError);
  });

  it('replaces checkpoint.json after each batch with an Ed25519 signature of the head, under audit.pub and the trail id', async () => {
    const trail = await open();
    const record = await trail.append(requestFields(1));
    await trail.flush(); // the checkpoint follows the resolve, so callers do not wait for it
    const checkpoint = parseCheckpoint(await readFile(path.join(home.dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint).toMatchObject({ v: 2, seq: record.seq, hash: record.hash });
    await expectSignedByHome(checkpoint);
  });

  it('writes a checkpoint at once when a new trail starts, so deleting the whole log is visible', async () => {
    await open('interval');
    const checkpoint = parseCheckpoint(await readFile(path.join(home.dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.seq).toBe(1);
    await expectSignedByHome(checkpoint);
  });
});

describe('group commit', () => {
  it('50,000 concurrent appends get seq in call order with no gaps, and the file verifies', async () => {
    const trail = await open('always');
    const count = 50_000;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const records = await Promise.all(Array.from({ length: count }, (_, index) => trail.append(requestFields(index))));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    // Wall time depends on what else runs on the machine; appends per CPU-second shows the writer's own cost.
    console.log(`audit group commit (fsync always): ${count} appends in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)} appends/s `
      + `(${Math.round(count / cpuSeconds)} per CPU-second, load average ${os.loadavg()[0]!.toFixed(1)})`);
    records.forEach((record, index) => {
      expect(record.seq).toBe(index + 2);
      expect(record.request_id).toBe(`req_${index}`);
    });
    await trail.close();
    const result = await verifyFile(home.logFile);
    expect(result).toMatchObject({ ok: true, records: count + 2, warnings: [] });
  }, 60_000);

  it('under fsync interval, syncs at most about once a second', async () => {
    let syncs = 0;
    const { nodeAuditFileSystem } = await import('../../src/audit/audit-file-system.js');
    const trail = await openAuditTrail({
      dir: home.dir, keyPath: home.keyPath, fsync: 'interval', now: steppingClock(),
      fileSystem: {
        ...nodeAuditFileSystem,
        openLog: async (file) => {
          const log = await nodeAuditFileSystem.openLog(file);
          return { ...log, datasync: async () => { syncs += 1; await log.datasync(); } };
        },
      },
    });
    opened.push(trail);
    for (let wave = 0; wave < 50; wave += 1) await Promise.all([trail.append(requestFields(wave)), trail.append(requestFields(wave))]);
    expect(syncs).toBeLessThanOrEqual(2);
    await trail.flush();
    expect(syncs).toBeGreaterThanOrEqual(1);
  });
  it('under fsync interval, the checkpoint only ever names records already fdatasync\'d', async () => {
    const { nodeAuditFileSystem } = await import('../../src/audit/audit-file-system.js');
    let writtenSeq = 0; // the highest seq whose line reached the file
    let syncedSeq = 0; // the highest seq covered by a finished fdatasync
    const checkpointSeqs: number[] = [];
    const ahead: string[] = []; // checkpoints naming a record no finished fdatasync covered
    const trail = await openAuditTrail({
      dir: home.dir, keyPath: home.keyPath, fsync: 'interval', now: steppingClock(),
      fileSystem: {
        openLog: async (file) => {
          const log = await nodeAuditFileSystem.openLog(file);
          return {
            ...log,
            write: (data, offset, position) => {
              const written = log.write(data, offset, position);
              for (const line of data.toString('utf8').split('\n').filter(Boolean)) writtenSeq = Math.max(writtenSeq, (JSON.parse(line) as AuditRecord).seq);
              return written;
            },
            datasync: async () => {
              const covered = writtenSeq;
              await log.datasync();
              syncedSeq = Math.max(syncedSeq, covered);
            },
          };
        },
        replaceFile: async (file, data, sync) => {
          const seq = (JSON.parse(data) as { seq: number }).seq;
          checkpointSeqs.push(seq);
          if (seq > syncedSeq || !sync) ahead.push(`checkpoint seq ${seq}, synced ${syncedSeq}, sync ${sync}`);
          await nodeAuditFileSystem.replaceFile(file, data, sync);
        },
      },
    });
    opened.push(trail);
    const started = Date.now();
    while (Date.now() - started < 2_300) {
      await Promise.all([trail.append(requestFields(1)), trail.append(requestFields(2))]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await trail.flush();
    expect(ahead).toEqual([]);
    expect(checkpointSeqs.length).toBeGreaterThanOrEqual(2); // one per fdatasync, about once a second
    expect(checkpointSeqs.at(-1)).toBe(writtenSeq);
    const checkpoint = parseCheckpoint(await readFile(path.join(home.dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.seq).toBe(writtenSeq);
    await expectSignedByHome(checkpoint);
  });
});

describe('torn tail repair', () => {
  it('quarantines a partial last line, truncates, records audit.recovered, and verifies', async () => {
    const trail = await open();
    await trail.append(requestFields(1));
    await trail.close();
    const goodBytes = (await stat(home.logFile)).size;
    const torn = '{"kind":"request","prev":"00';
    await appendFile(home.logFile, torn);
    expect((await verifyFile(home.logFile)).warnings.some((warning) => warning.includes('no trailing newline'))).toBe(true);

    const reopened = await open();
    await reopened.close();
    const [quarantined] = await readdir(path.join(home.dir, 'quarantine'));
    expect(await readFile(path.join(home.dir, 'quarantine', quarantined!), 'utf8')).toBe(torn);
    const records = (await readLines(home.logFile)).map((line) => JSON.parse(line) as AuditRecord);
    expect(records[3]).toMatchObject({ seq: 4, kind: 'audit.recovered', data: { dropped_bytes: torn.length, last_good_seq: 3, reason: 'torn_tail' } });
    expect(records[4]).toMatchObject({ seq: 5, kind: 'gateway.start' });
    expect((await readFile(home.logFile)).subarray(0, goodBytes).toString()).not.toContain(torn);
    expect(await verifyFile(home.logFile)).toMatchObject({ ok: true, records: 6, warnings: [] });
  });

  it('keeps an edited last line for verify to report (only a torn line is repaired), and never repairs a bad line in the middle', async () => {
    const trail = await open();
    await trail.append(requestFields(1));
    await trail.close();
    const lines = await readLines(home.logFile);
    const editedLast = lines[2]!.replace('"kind":"gateway.stop"', '"kind":"gateway.stoq"');
    await writeFile(home.logFile, `${[lines[0], lines[1], editedLast].join('\n')}\n`);
    await (await open()).close();
    const afterLast = await readLines(home.logFile);
    expect(afterLast[2]).toBe(editedLast);
    expect(afterLast.some((line) => line.includes('"kind":"audit.recovered"'))).toBe(false);
    expect((await verifyFile(home.logFile)).firstBad).toMatchObject({ line: 3, seq: 3, reason: 'record 3: hash mismatch (edited)' });

    const now = await readLines(home.logFile);
    now[1] = now[1]!.replace('"status":200', '"status":201');
    await writeFile(home.logFile, `${now.join('\n')}\n`);
    await (await open()).close();
    const result = await verifyFile(home.logFile);
    expect(result.firstBad).toMatchObject({ line: 2, seq: 2, reason: 'record 2: hash mismatch (edited)' });
  });
});
