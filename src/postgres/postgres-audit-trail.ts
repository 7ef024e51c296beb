// The audit trail on PostgreSQL: one hash chain per instance boot (same record format,
// same sealing code as audit.jsonl), appended in group commits: every record queued
// within a 10 ms window or while a commit is in flight goes into the next one, a single multi-row INSERT that
// also moves the chain's checkpoint (head seq and hash, HMAC'd with this instance's
// audit.key) in the same transaction. A record is acknowledged only once committed.
// Several instances never contend: each appends to its own chain.
import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import { sealAppended, GENESIS_PREV, type SealedRecord } from '../audit/chain.js';
import { signCheckpoint, type ChainHead } from '../audit/checkpoint.js';
import { AuditClosedError, type AuditStatus, type AuditTrail } from '../audit/audit-trail.js';
import type { AuditFields, AuditRecord } from '../audit/record.js';
import type { Database } from './database.js';

// One commit carries at most this many records; more wait for the next.
const MAX_BATCH = 1_000;
const RETRY_MS = 500;
// How long a record may wait for others to share its commit (see #kick).
const COMMIT_WINDOW_MS = 10;

interface Pending {
  sealed: SealedRecord;
  resolve(record: AuditRecord): void;
  reject(error: unknown): void;
}

export interface PostgresAuditOptions {
  database: Database;
  /** The instance's audit.key: checkpoints are HMAC'd with it, and verify names it by its id. */
  key: Buffer;
  now?: () => Date;
  /** A name for this instance in `gw audit verify --store` (hostname:pid by default). */
  instance?: string;
}

/** The id verify uses to tell whether it holds the key a chain's checkpoint was made with. */
export function auditKeyId(key: Uint8Array): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export async function openPostgresAuditTrail(options: PostgresAuditOptions): Promise<AuditTrail & { chainId: string }> {
  const chainId = randomUUID();
  const now = options.now ?? (() => new Date());
  const instance = options.instance ?? `${os.hostname()}:${process.pid}`;
  await options.database.query('INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash) VALUES ($1, $2, $3, 0, $4)', [chainId, instance, now(), GENESIS_PREV]);
  const trail = new PostgresAuditTrail(options.database, options.key, chainId, now);
  await trail.append({ kind: 'gateway.start', data: { pid: process.pid, chain: chainId, instance } }).catch(() => undefined);
  return trail;
}

class PostgresAuditTrail implements AuditTrail {
  #tip: ChainHead = { seq: 0, hash: GENESIS_PREV };
  #durable: ChainHead = { seq: 0, hash: GENESIS_PREV };
  #queue: Pending[] = [];
  #writing: Promise<void> | null = null;
  #problem: string | null = null;
  #closed = false;
  #closing: Promise<void> | null = null;
  #windowTimer: NodeJS.Timeout | undefined;
  readonly #keyId: string;

  constructor(private readonly database: Database, private readonly key: Buffer, readonly chainId: string, private readonly now: () => Date) {
    this.#keyId = auditKeyId(key);
  }

  append(fields: AuditFields): Promise<AuditRecord> {
    if (this.#closed) return Promise.reject(new AuditClosedError());
    let sealed: SealedRecord;
    try {
      sealed = sealAppended(fields, { v: 1, seq: this.#tip.seq + 1, ts: this.now().toISOString(), prev: this.#tip.hash });
    } catch (error) {
      return Promise.reject(error);
    }
    this.#tip = { seq: sealed.record.seq, hash: sealed.record.hash };
    return new Promise((resolve, reject) => {
      this.#queue.push({ sealed, resolve, reject });
      this.#kick();
    });
  }

  status(): AuditStatus {
    return this.#problem === null ? { ok: true, seq: this.#durable.seq } : { ok: false, reason: this.#problem };
  }

  async flush(): Promise<void> {
    if (this.#queue.length > 0) this.#kick(true);
    while (this.#writing) {
      await this.#writing;
      if (this.#queue.length > 0) this.#kick(true);
    }
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.append({ kind: 'gateway.stop', data: { pid: process.pid } }).catch(() => undefined);
      this.#closed = true;
      await this.flush();
    })();
    return this.#closing;
  }

  /**
   * Starts a commit COMMIT_WINDOW_MS after the first waiting record (at once when a batch is full
   * or on flush): a round trip to PostgreSQL outlasts the gap between calls, so without the window
   * nearly every record would be a commit of its own, paid for in CPU per request.
   */
  #kick(now = false): void {
    if (this.#writing) return;
    if (!now && this.#queue.length < MAX_BATCH) {
      this.#windowTimer ??= setTimeout(() => { this.#windowTimer = undefined; this.#kick(true); }, COMMIT_WINDOW_MS);
      return;
    }
    clearTimeout(this.#windowTimer);
    this.#windowTimer = undefined;
    this.#writing = this.#drain().finally(() => {
      this.#writing = null;
      if (this.#queue.length > 0) this.#kick();
    });
  }

  /** Commits batches until the queue is empty; a failed commit is retried (same records, same order) until it lands. */
  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.slice(0, MAX_BATCH);
      try {
        await this.#commit(batch);
      } catch (error) {
        this.#problem = `audit store unreachable: ${error instanceof Error ? error.message : String(error)}`;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      this.#problem = null;
      this.#queue.splice(0, batch.length);
      const last = batch.at(-1)!.sealed.record;
      this.#durable = { seq: last.seq, hash: last.hash };
      for (const entry of batch) entry.resolve(entry.sealed.record);
    }
  }

  async #commit(batch: Pending[]): Promise<void> {
    const last = batch.at(-1)!.sealed.record;
    const checkpoint = { ...signCheckpoint(this.key, { seq: last.seq, hash: last.hash }), key_id: this.#keyId };
    // One statement, so one round trip and atomic on its own: the records and the checkpoint that covers them.
    // Lines are JCS JSON, which never holds a raw newline, so the batch travels as newline-joined text:
    // far cheaper to send than a text[] parameter, whose every element pg would escape.
    // A retried commit may have landed before its acknowledgement was lost: rows already there are skipped.
    const records = batch.map((entry) => entry.sealed.record);
    await this.database.query(
      `WITH added AS (
         INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line)
         SELECT $1, $2::bigint + n - 1, ts::timestamptz, kind, line
         FROM unnest(string_to_array($3, E'\\n'), string_to_array($4, E'\\n'), string_to_array($5, E'\\n')) WITH ORDINALITY AS batch (line, ts, kind, n)
         ON CONFLICT (chain_id, seq) DO NOTHING
       )
       UPDATE gw_audit_chains SET head_seq = $6, head_hash = $7, checkpoint = $8 WHERE chain_id = $1`,
      [this.chainId, records[0]!.seq, batch.map((entry) => entry.sealed.line).join('\n'), records.map((record) => record.ts).join('\n'),
        records.map((record) => record.kind).join('\n'), last.seq, last.hash, checkpoint],
    );
  }
}
