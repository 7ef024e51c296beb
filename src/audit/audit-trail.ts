// Opens $GW_HOME/audit: lock, signing key, torn-tail repair, the check against the last
// checkpoint, then the group-commit writer, with `gateway.start` first and `gateway.stop` last.
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readOptionalFile } from './read-optional-file.js';
import { nodeAuditFileSystem, type AuditFileSystem } from './audit-file-system.js';
import { signCheckpointWithKey, trailIdOf, type ChainHead, type Checkpoint } from './checkpoint.js';
import { loadOrCreateSigningKey, writePublicKey, type AuditSigningKey } from './signing-key.js';
import { lockAuditDirectory, type AuditWriterRole } from './audit-lock.js';
import { GroupCommitWriter, type AuditFsyncPolicy, type AuditStatus } from './group-commit-writer.js';
import type { AuditFields, AuditRecord } from './record.js';
import { AuditGapError, checkStartGap, hashAt, type StartGap } from './check-start-gap.js';
import { repairTornTail, type TailState } from './repair-tail.js';
import { checkKeyTrustedAtStart, trustKeyAfterGap } from './trust-at-start.js';
import { FileTrailHandle, type RotationSummary } from './file-trail-handle.js';
import { recoverRotation, type RecoveredRotation } from './recover-rotation.js';
import { closedChainsEvidence } from './closed-chains.js';
import { endRotation } from './rotation-journal.js';
import { isSignedCheckpoint } from './checkpoint.js';

export { AuditLockedError } from './audit-lock.js';
export { AuditClosedError, AuditWriteError, type AuditStatus } from './group-commit-writer.js';
export { AuditGapError } from './check-start-gap.js';
export { AuditRotationError, type RotationSummary } from './file-trail-handle.js';
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
  /** TEST ONLY (GW_TEST_ROTATE_PAUSE): the rotation step to stop at for ever, so a test can kill -9 there. */
  testRotatePause?: string;
}

export interface AuditTrail {
  /** Resolves with the record as written, once it is in the log (and fdatasync'd under 'always'). */
  append(fields: AuditFields): Promise<AuditRecord>;
  status(): AuditStatus;
  flush(): Promise<void>;
  /** Appends gateway.stop, flushes, fsyncs and releases the lock; a second call returns the first's promise. */
  close(): Promise<void>;
  /**
   * gw audit rotate: closes the current chain with an `audit.chain_closed` record and a closed
   * checkpoint under the old key, and opens the next chain under a new key (docs/audit-rotate.md).
   */
  rotate?(): Promise<RotationSummary>;
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

/** The start's view of a rotation the last run left unfinished. */
type Recovery = RecoveredRotation | { rolledBack: string } | null;

function isRecovered(recovery: Recovery): recovery is RecoveredRotation {
  return recovery !== null && 'journal' in recovery;
}

/** A missing checkpoint is the rotation's own doing when the new chain opened by naming the journal's chain and no checkpoint came yet. */
async function isOpeningWithoutCheckpoint(recovery: Recovery, gap: StartGap | null, logFile: string): Promise<boolean> {
  if (!isRecovered(recovery) || gap === null || gap.checkpoint_hash !== '' || gap.log_seq === 0) return false;
  const first = await hashAt(logFile, 1);
  const line = first === undefined ? undefined : (await readOptionalFile(logFile))?.toString('utf8').split('\n', 1)[0];
  return line !== undefined && line.includes('"kind":"audit.chain_opened"') && line.includes(`"previous_trail":"${recovery.journal.chain}"`);
}

export async function openAuditTrail(options: AuditTrailOptions): Promise<AuditTrail> {
  const now = options.now ?? (() => new Date());
  const fileSystem = options.fileSystem ?? nodeAuditFileSystem;
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  await chmod(options.dir, 0o700);
  const role = options.role ?? 'gateway';
  const lock = await lockAuditDirectory(path.join(options.dir, AUDIT_LOCK_FILE), role);
  let handle: FileTrailHandle;
  try {
    const home = path.dirname(options.keyPath);
    const recovery = await recoverRotation(home, options.dir);
    if (recovery !== null) options.onNote?.(isRecovered(recovery) ? recovery.note : recovery.rolledBack);
    const key = await loadOrCreateSigningKey(home);
    const legacyKey = await readOptionalFile(options.keyPath);
    const logFile = path.join(options.dir, AUDIT_LOG_FILE);
    const tail = await repairTornTail(logFile, path.join(options.dir, 'quarantine'), now());
    const checkpointFile = path.join(options.dir, AUDIT_CHECKPOINT_FILE);
    const trust = await checkKeyTrustedAtStart(home, key.publicKey, new Date(), tail.head !== null, await closedChainsEvidence(options.dir));
    if (trust.kind === 'seeded') options.onNote?.(trust.note);
    let gap = await checkStartGap(checkpointFile, logFile, { publicKey: key.publicKey, legacyKey }, tail.head)
      ?? (trust.kind === 'untrusted' ? untrustedKeyGap(trust.reason, tail.head) : null);
    if (await isOpeningWithoutCheckpoint(recovery, gap, logFile)) gap = null;
    if (gap !== null && !options.acceptGap) throw new AuditGapError(gap, options.dir);
    if (trust.kind === 'untrusted') await trustKeyAfterGap(home, key.publicKey, new Date());
    await writePublicKey(home, key);
    const signer = { fileSystem, now, fsync: options.fsync, checkpointFile, ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}) };
    const openWriter = async (signingKey: AuditSigningKey, head: ChainHead | null = null, size = 0, firstHash: string | null = null) => {
      const file = await fileSystem.openLog(logFile);
      const writer = new GroupCommitWriter({ ...signer, file, head, size, signHead: signerOf(signingKey), firstHash });
      return { writer, closeFile: () => file.close() };
    };
    const opened = await openWriter(key, tail.head, tail.size, await firstHashOf(logFile, tail.head));
    handle = new FileTrailHandle({
      home, dir: options.dir, key, role, lock, ...opened, ...(options.testRotatePause ? { pauseAt: options.testRotatePause } : {}), openWriter: (signingKey) => openWriter(signingKey),
      writeCheckpoint: async (checkpoint) => {
        await fileSystem.replaceFile(checkpointFile, `${JSON.stringify(checkpoint)}\n`, true);
        if (isSignedCheckpoint(checkpoint)) options.onCheckpoint?.(checkpoint);
      },
    });
    // The new chain of an interrupted rotation opens by naming the closed one, before anything else.
    if (isRecovered(recovery) && tail.head === null) await opened.writer.append(recovery.opening);
    await recordStart(opened.writer, tail, gap, role);
    // A new trail (and each start) gets its checkpoint at once, not a second later: deleting the
    // whole log is then visible, and a witness hears of the trail before it serves anything.
    await opened.writer.flush();
    if (isRecovered(recovery)) await endRotation(home);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return handle;
}
