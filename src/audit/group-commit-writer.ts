// The one writer loop. Records are sealed (seq, prev, hash) when appended, so
// seq order is call order; everything queued while a write is in flight goes
// into the next write, then fdatasync per policy, then the promises resolve
// (leader/follower group commit, security-reliability.md §A5).
// A failed batch never stays in the chain: the file is cut back to the last
// durable byte, queued records are re-sealed from the durable head, and an
// `audit.gap` record leads the next batch that can be written.
import { sealAppended, type SealedRecord } from './chain.js';
import type { ChainHead, Checkpoint } from './checkpoint.js';
import { GENESIS_PREV, type AuditFields, type AuditRecord } from './record.js';
import type { AuditFileSystem, AuditLogFile } from './audit-file-system.js';

export type AuditStatus = { ok: true; seq: number } | { ok: false; reason: string };

/** An append that could not be written; the record is not in the chain and is counted in the next `audit.gap`. */
export class AuditWriteError extends Error {
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(`the audit record could not be written: ${reason}`, options);
    this.name = 'AuditWriteError';
  }
}

export class AuditClosedError extends Error {
  constructor() {
    super('the audit trail is closed');
    this.name = 'AuditClosedError';
  }
}

/** When appended lines reach the disk: each group (always), a timer (interval), or the OS's choice (never). */
export type AuditFsyncPolicy = 'always' | 'interval' | 'never';

export interface GroupCommitWriterOptions {
  file: AuditLogFile;
  fileSystem: AuditFileSystem;
  checkpointFile: string;
  /** Signs a head; `firstHash` is the hash of record 1, from which the trail's id comes. */
  signHead: (head: ChainHead, firstHash: string) => Checkpoint;
  /** Told of each checkpoint once it is on disk (the witness pusher); must not throw or block. */
  onCheckpoint?: (checkpoint: Checkpoint) => void;
  /** The hash of record 1 of an existing log (null when the log is empty). */
  firstHash: string | null;
  fsync: AuditFsyncPolicy;
  now: () => Date;
  /** Where the log ends: its last record (null when empty) and its length in bytes. */
  head: ChainHead | null;
  size: number;
}

interface Entry {
  fields: AuditFields;
  ts: string;
  sealed: SealedRecord;
  /** Absent for the writer's own audit.gap record, which nobody awaits. */
  settle?: { resolve(record: AuditRecord): void; reject(error: Error): void };
}

interface Gap {
  lost: number;
  firstTs: string | undefined;
  lastTs: string | undefined;
  reason: string;
}

const MAX_BATCH_RECORDS = 1024;
const MAX_BATCH_BYTES = 1024 * 1024;
const SYNC_INTERVAL_MS = 1000;
// The checkpoint (a file replaced by rename, with its own fsync) is rewritten at most
// this often under load; flush() and close() always bring it up to the head.
const CHECKPOINT_INTERVAL_MS = 1000;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class GroupCommitWriter {
  private queue: Entry[] = [];
  private awaited = 0;
  private tip: ChainHead;
  private durable: ChainHead;
  private size: number;
  private writing = false;
  private idleWaiters: Array<() => void> = [];
  private gap: Gap | undefined;
  private needsTruncate = false;
  private problems = new Map<'write' | 'sync' | 'checkpoint', string>();
  private unsynced = false;
  private lastSyncAt = 0;
  private syncTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private checkpointed: ChainHead | undefined;
  private lastCheckpointAt = -Infinity;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private checkpointing: Promise<void> = Promise.resolve();
  private firstHash: string | null;
  /** Set by a rotation before its closing record: that record's checkpoint is the closed one, written by the rotation. */
  private checkpointsHeld = false;

  constructor(private readonly options: GroupCommitWriterOptions) {
    this.tip = options.head ?? { seq: 0, hash: GENESIS_PREV };
    this.durable = this.tip;
    this.size = options.size;
    this.firstHash = options.firstHash;
  }

  append(fields: AuditFields): Promise<AuditRecord> {
    if (this.closed) return Promise.reject(new AuditClosedError());
    const ts = this.options.now().toISOString();
    let sealed: SealedRecord;
    try {
      sealed = this.seal(fields, ts);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ fields, ts, sealed, settle: { resolve, reject } });
      this.awaited += 1;
      this.kick();
    });
  }

  status(): AuditStatus {
    const [reason] = this.problems.values();
    return reason === undefined ? { ok: true, seq: this.durable.seq } : { ok: false, reason };
  }

  /** The hash of record 1 (null while empty) and the durable head: what a rotation closes. */
  chainHead(): { firstHash: string | null; head: ChainHead } {
    return { firstHash: this.firstHash, head: this.durable };
  }

  /**
   * No more checkpoints from this writer: the next one of its chain is the closed checkpoint the
   * rotation signs. (A plain one at the closing record first would reach the witnesses with the
   * same seq, and the closed one would look like a repeat.)
   */
  holdCheckpoints(hold = true): void {
    this.checkpointsHeld = hold;
  }

  /** Resolves once every record appended so far is written and, whatever the policy, fdatasync'd. */
  async flush(): Promise<void> {
    if (this.writing) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    if (this.unsynced) await this.syncNow();
    if (this.checkpointed?.seq !== this.durable.seq) await this.queueCheckpoint();
  }

  /** Refuses further appends, waits for the queue, syncs; the caller closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    await this.flush();
  }

  private seal(fields: AuditFields, ts: string): SealedRecord {
    // No `{ ...fields, v, seq, ts, prev }` copy: the clean copy made while sealing merges them.
    const sealed = sealAppended(fields, { v: 1, seq: this.tip.seq + 1, ts, prev: this.tip.hash });
    this.tip = { seq: sealed.record.seq, hash: sealed.record.hash };
    // Re-sealed after a failed first batch too, so the trail id follows the record 1 that lands.
    if (sealed.record.seq === 1) this.firstHash = sealed.record.hash;
    return sealed;
  }

  private kick(): void {
    if (this.writing) return;
    this.writing = true;
    // Written once this turn of the event loop is over: every record appended meanwhile joins the batch.
    setImmediate(() => void this.runLoop());
  }

  private async runLoop(): Promise<void> {
    try {
      // Only awaited records start a write: a lone audit.gap waits for the next append, so a full disk is not polled.
      while (this.awaited > 0) await this.writeBatch(this.takeBatch());
    } finally {
      // No await between the loop's last check and here, so an append cannot slip between them unseen.
      this.writing = false;
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private takeBatch(): Entry[] {
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && count < MAX_BATCH_RECORDS && (count === 0 || bytes < MAX_BATCH_BYTES)) {
      bytes += (this.queue[count]?.sealed.line.length ?? 0) + 1;
      count += 1;
    }
    const batch = this.queue.splice(0, count);
    for (const entry of batch) if (entry.settle) this.awaited -= 1;
    return batch;
  }

  private async writeBatch(batch: Entry[]): Promise<void> {
    const data = Buffer.from(batch.map((entry) => `${entry.sealed.line}\n`).join(''), 'utf8');
    try {
      if (this.needsTruncate) this.options.file.truncate(this.size);
      this.needsTruncate = false;
      this.writeFully(data);
      await this.syncAfterWrite();
    } catch (error) {
      this.needsTruncate = true;
      this.failBatch(batch, error);
      return;
    }
    const last = batch[batch.length - 1]!.sealed.record;
    this.size += data.length;
    this.durable = { seq: last.seq, hash: last.hash };
    if (batch[0]?.settle === undefined) this.gap = undefined;
    this.problems.delete('write');
    for (const entry of batch) entry.settle?.resolve(entry.sealed.record);
    // Under `interval` the checkpoint follows the fdatasync instead (syncNow), so it never
    // names a record that a power cut could still take from the log.
    if (this.options.fsync !== 'interval') await this.scheduleCheckpoint();
  }

  /** At most one checkpoint write per interval; the last batch of a burst is covered by a trailing timer. */
  private async scheduleCheckpoint(): Promise<void> {
    const wait = this.lastCheckpointAt + CHECKPOINT_INTERVAL_MS - performance.now();
    if (wait <= 0) return this.queueCheckpoint();
    if (!this.checkpointTimer && !this.closed) {
      this.checkpointTimer = setTimeout(() => {
        this.checkpointTimer = undefined;
        void this.queueCheckpoint();
      }, wait);
      this.checkpointTimer.unref();
    }
  }

  /** Checkpoint writes run one at a time: they share a temporary file. */
  private queueCheckpoint(head?: ChainHead): Promise<void> {
    this.checkpointing = this.checkpointing.then(() => this.writeCheckpoint(head ?? this.durable));
    return this.checkpointing;
  }

  private writeFully(data: Buffer): void {
    for (let offset = 0; offset < data.length;) {
      const written = this.options.file.write(data, offset, this.size + offset);
      if (written <= 0) throw new Error('the log write made no progress');
      offset += written;
    }
  }

  private async syncAfterWrite(): Promise<void> {
    const policy = this.options.fsync;
    if (policy === 'always') return this.options.file.datasync();
    this.unsynced = true;
    if (policy === 'never') return;
    const wait = this.lastSyncAt + SYNC_INTERVAL_MS - performance.now();
    if (wait <= 0) return this.syncNow();
    if (!this.syncTimer && !this.closed) {
      this.syncTimer = setTimeout(() => {
        this.syncTimer = undefined;
        void this.syncNow();
      }, wait);
      this.syncTimer.unref();
    }
  }

  private async syncNow(): Promise<void> {
    this.unsynced = false;
    this.lastSyncAt = performance.now();
    const head = this.durable;
    try {
      await this.options.file.datasync();
      this.problems.delete('sync');
      if (this.options.fsync === 'interval') void this.queueCheckpoint(head);
    } catch (error) {
      this.unsynced = true;
      this.problems.set('sync', `cannot fsync the audit trail: ${describe(error)}`);
    }
  }

  private async writeCheckpoint(head: ChainHead): Promise<void> {
    this.lastCheckpointAt = performance.now();
    if (this.checkpointsHeld) return;
    if (this.checkpointed !== undefined && this.checkpointed.seq >= head.seq) return;
    if (this.firstHash === null || head.seq === 0) return; // nothing written yet: nothing to seal
    // Ed25519 signing is ~50 µs, once per checkpoint (at most one a second), not per record.
    const checkpoint = this.options.signHead(head, this.firstHash);
    try {
      await this.options.fileSystem.replaceFile(this.options.checkpointFile, `${JSON.stringify(checkpoint)}\n`, this.options.fsync !== 'never');
      this.checkpointed = head;
      this.problems.delete('checkpoint');
      this.options.onCheckpoint?.(checkpoint);
    } catch (error) {
      this.problems.set('checkpoint', `cannot write the audit checkpoint: ${describe(error)}`);
    }
  }

  /** Rejects the batch, counts it into the pending gap, and re-seals what is still queued from the durable head. */
  private failBatch(batch: Entry[], error: unknown): void {
    const reason = describe(error);
    const lost = batch.filter((entry) => entry.settle);
    for (const entry of lost) entry.settle?.reject(new AuditWriteError(reason, { cause: error }));
    const gap: Gap = this.gap ?? { lost: 0, firstTs: undefined, lastTs: undefined, reason };
    gap.lost += lost.length;
    gap.firstTs ??= lost[0]?.ts;
    gap.lastTs = lost[lost.length - 1]?.ts ?? gap.lastTs;
    this.gap = gap;
    this.problems.set('write', `cannot write the audit trail: ${reason}`);
    this.rechain();
  }

  private rechain(): void {
    this.tip = this.durable;
    const waiting = this.queue.filter((entry) => entry.settle);
    this.queue = [];
    if (this.gap) {
      const { lost, firstTs, lastTs, reason } = this.gap;
      const fields: AuditFields = { kind: 'audit.gap', data: { lost, first_ts: firstTs ?? null, last_ts: lastTs ?? null, reason } };
      const ts = this.options.now().toISOString();
      this.queue.push({ fields, ts, sealed: this.seal(fields, ts) });
    }
    for (const entry of waiting) this.queue.push({ ...entry, sealed: this.seal(entry.fields, entry.ts) });
  }
}
