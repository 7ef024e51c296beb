// Opens $GW_HOME/audit: lock, signing key, torn-tail repair, the check against the last
// checkpoint, then the group-commit writer, with `gateway.start` first and `gateway.stop` last.
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readOptionalFile } from './read-optional-file.js';
import type { AuditFsyncPolicy } from '../state/schema.js';
import { nodeAuditFileSystem, type AuditFileSystem } from './audit-file-system.js';
import { signCheckpointWithKey, trailIdOf, type ChainHead, type Checkpoint } from './checkpoint.js';
import { loadOrCreateSigningKey, writePublicKey, type AuditSigningKey } from './signing-key.js';
import { lockAuditDirectory, type AuditLock, type AuditWriterRole } from './audit-lock.js';
import { GroupCommitWriter, type AuditStatus } from './group-commit-writer.js';
import type { AuditFields, AuditRecord } from './record.js';
import { AuditGapError, checkStartGap, hashAt, type StartGap } from './check-start-gap.js';
import { repairTornTail, type TailState } from './repair-tail.js';
import { checkKeyTrustedAtStart, trustKeyAfterGap } from './trust-at-start.js';

export { AuditLockedError } from './audit-lock.js';
export { AuditClosedError, AuditWriteError, type AuditStatus } from './group-commit-writer.js';
export { AuditGapError } from './check-start-gap.js';
export type { AuditFileSystem } from './audit-file-system.js';

export interface AuditTrailOptions {
  /** $GW_HOME/audit */
  dir: string;
  /**
   * $GW_HOME/audit.key: the legacy HMAC key, read (never created) to check a checkpoint written
   * before signing. The Ed25519 key pair lives beside it (audit-signing.key, audit.pub).
   */
  keyPath: string;
  fsync: AuditFsyncPolicy;
  now?: () => Date;
  /** The writer's file calls; tests inject failures here. */
  fileSystem?: AuditFileSystem;
  /** Start even when the log does not reach its checkpoint, recording an `audit.gap` (gw serve --accept-audit-gap). */
  acceptGap?: boolean;
  /** Told of each signed checkpoint once it is on disk (the witness pusher). */
  onCheckpoint?: (checkpoint: Checkpoint) => void;
  /**
   * `gateway` (default): gw serve, recording gateway.start and gateway.stop. `cli`: a command
   * appending the admin changes it just made while no gateway runs; no start or stop record,
   * and a gateway starting meanwhile waits for its lock (src/cli/record-admin-changes.ts).
   */
  role?: AuditWriterRole;
  /** Told what the start did that an operator should know (the trust file seeded). */
  onNote?: (note: string) => void;
}

export interface AuditTrail {
  /** Resolves with the record as written, once it is in the log (and fdatasync'd under 'always'). */
  append(fields: AuditFields): Promise<AuditRecord>;
  status(): AuditStatus;
  flush(): Promise<void>;
  /** Appends gateway.stop, flushes, fsyncs and releases the lock; a second call returns the first's promise. */
  close(): Promise<void>;
}

export const AUDIT_LOG_FILE = 'audit.jsonl';
export const AUDIT_CHECKPOINT_FILE = 'checkpoint.json';
const AUDIT_LOCK_FILE = 'audit.lock';

function recoveredFields(tail: TailState): AuditFields | undefined {
  if (!tail.repaired) return undefined;
  const data = { dropped_bytes: tail.repaired.droppedBytes, last_good_seq: tail.head?.seq ?? 0, reason: 'torn_tail' };
  return { kind: 'audit.recovered', data: { ...data, quarantine_file: path.basename(tail.repaired.quarantineFile) } };
}

/**
 * Records gateway.start (after audit.gap, when the operator accepted one, and audit.recovered, if
 * the tail was repaired); a failed write leaves status() not ok, it does not throw.
 */
async function recordStart(writer: GroupCommitWriter, tail: TailState, gap: StartGap | null, role: AuditWriterRole): Promise<void> {
  const recovered = recoveredFields(tail);
  const writes = [
    gap ? writer.append({ kind: 'audit.gap', data: { ...gap, accepted_by: 'gw serve --accept-audit-gap' } }) : undefined,
    recovered ? writer.append(recovered) : undefined,
    role === 'gateway' ? writer.append({ kind: 'gateway.start', data: { pid: process.pid } }) : undefined,
  ];
  await Promise.allSettled(writes.filter((write) => write !== undefined));
}

function signerOf(key: AuditSigningKey): (head: ChainHead, firstHash: string) => Checkpoint {
  return (head, firstHash) => signCheckpointWithKey(key.privateKey, key.publicKey, trailIdOf(firstHash), head);
}

/** Record 1's hash names the trail; a log whose record 1 is unreadable (verify reports it) is named after its head, so it is still checkpointed. */
async function firstHashOf(logFile: string, head: ChainHead | null): Promise<string | null> {
  if (head === null) return null;
  return (await hashAt(logFile, 1)) ?? head.hash;
}

function untrustedKeyGap(reason: string, head: ChainHead | null): StartGap {
  return { reason, checkpoint_seq: 0, checkpoint_hash: '', log_seq: head?.seq ?? 0, log_hash: head?.hash ?? null };
}

export async function openAuditTrail(options: AuditTrailOptions): Promise<AuditTrail> {
  const now = options.now ?? (() => new Date());
  const fileSystem = options.fileSystem ?? nodeAuditFileSystem;
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  await chmod(options.dir, 0o700);
  const role = options.role ?? 'gateway';
  const lock = await lockAuditDirectory(path.join(options.dir, AUDIT_LOCK_FILE), role);
  let writer: GroupCommitWriter;
  let closeFile: () => Promise<void>;
  try {
    const home = path.dirname(options.keyPath);
    const key = await loadOrCreateSigningKey(home);
    const legacyKey = await readOptionalFile(options.keyPath);
    const logFile = path.join(options.dir, AUDIT_LOG_FILE);
    const tail = await repairTornTail(logFile, path.join(options.dir, 'quarantine'), now());
    const checkpointFile = path.join(options.dir, AUDIT_CHECKPOINT_FILE);
    const trust = await checkKeyTrustedAtStart(home, key.publicKey, new Date(), tail.head !== null);
    if (trust.kind === 'seeded') options.onNote?.(trust.note);
    const gap = await checkStartGap(checkpointFile, logFile, { publicKey: key.publicKey, legacyKey }, tail.head)
      ?? (trust.kind === 'untrusted' ? untrustedKeyGap(trust.reason, tail.head) : null);
    if (gap !== null && !options.acceptGap) throw new AuditGapError(gap, options.dir);
    if (trust.kind === 'untrusted') await trustKeyAfterGap(home, key.publicKey, new Date());
    await writePublicKey(home, key);
    const file = await fileSystem.openLog(logFile);
    closeFile = () => file.close();
    writer = new GroupCommitWriter({
      file, fileSystem, now, fsync: options.fsync, head: tail.head, size: tail.size,
      checkpointFile, signHead: signerOf(key), firstHash: await firstHashOf(logFile, tail.head),
      ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
    });
    await recordStart(writer, tail, gap, role);
    // A new trail (and each start) gets its checkpoint at once, not a second later: deleting the
    // whole log is then visible, and a witness hears of the trail before it serves anything.
    await writer.flush();
  } catch (error) {
    await lock.release();
    throw error;
  }
  return createHandle(writer, closeFile, lock, role);
}

function createHandle(writer: GroupCommitWriter, closeFile: () => Promise<void>, lock: AuditLock, role: AuditWriterRole): AuditTrail {
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    try {
      if (role === 'gateway') await writer.append({ kind: 'gateway.stop', data: { pid: process.pid } });
    } finally {
      await writer.close();
      await closeFile().catch(() => undefined);
      await lock.release();
    }
  };
  return {
    append: (fields) => writer.append(fields),
    status: () => writer.status(),
    flush: () => writer.flush(),
    close: () => (closing ??= close()),
  };
}
