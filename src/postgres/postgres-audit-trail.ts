// The audit trail on PostgreSQL: one hash chain per instance boot (same record format,
// same sealing code as audit.jsonl), appended in group commits: every record queued
// within a 10 ms window or while a commit is in flight goes into the next one, a single multi-row INSERT that
// also moves the chain's checkpoint (head seq and hash, signed with this instance's
// Ed25519 audit-signing.key, as audit.jsonl's are) in the same transaction. A record is acknowledged only once committed.
// Several instances never contend: each appends to its own chain.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sealAppended, GENESIS_PREV, type SealedRecord } from '../audit/chain.js';
import { signCheckpointWithKey, trailIdOf, type ChainHead, type SignedCheckpoint } from '../audit/checkpoint.js';
import type { AuditSigningKey } from '../audit/signing-key.js';
import { AuditClosedError, AuditRotationError, type AuditStatus, type AuditTrail, type RotationSummary } from '../audit/audit-trail.js';
import { rotateChain, type RotationHost } from './postgres-chain-rotation.js';
import type { AuditFields, AuditRecord } from '../audit/record.js';
import type { Database } from './database.js';
import { requestFacets } from './request-facets.js';

// One commit carries at most this many records; more wait for the next.
const MAX_BATCH = 1_000;
const RETRY_MS = 500;
// How long a record may wait for others to share its commit (see #kick).
const COMMIT_WINDOW_MS = 10;
// How long a stop waits for PostgreSQL to take the last records.
const CLOSE_WAIT_MS = 5_000;

interface Pending {
  sealed: SealedRecord;
  resolve(record: AuditRecord): void;
  reject(error: unknown): void;
}

export interface PostgresAuditOptions {
  database: Database;
  /** The instance's Ed25519 key (audit-signing.key in its home): it signs each chain's checkpoints. */
  signingKey: AuditSigningKey;
  /** Each new checkpoint, for the witnesses (src/audit/witness-pusher.ts). */
  onCheckpoint?: (checkpoint: SignedCheckpoint) => void;
  now?: () => Date;
  /** A name for this instance in `gw audit verify --store` (hostname:pid by default). */
  instance?: string;
  /** The instance's home, where a rotation keeps its next key and journal (gw audit rotate); without it the trail cannot rotate. */
  home?: string;
  /** TEST ONLY (GW_TEST_ROTATE_PAUSE): the rotation step to stop at. */
  testRotatePause?: string;
}

export async function openPostgresAuditTrail(options: PostgresAuditOptions): Promise<AuditTrail & { chainId: string }> {
  const chainId = randomUUID();
  const now = options.now ?? (() => new Date());
  const instance = options.instance ?? `${os.hostname()}:${process.pid}`;
  await options.database.query('INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash) VALUES ($1, $2, $3, 0, $4)', [chainId, instance, now(), GENESIS_PREV]);
  const trail = new PostgresAuditTrail(options.database, options.signingKey, chainId, now, options.onCheckpoint);
  if (options.home !== undefined) trail.rotation = { home: options.home, instance, ...(options.testRotatePause ? { pauseAt: options.testRotatePause } : {}) };
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
  /** Set when a stop gave up on PostgreSQL: the retry loop ends too. */
  #abandoned = false;
  /** The trail id: trailIdOf(hash of record 1), as for audit.jsonl. */
  #trail: string | null = null;
  /** Appends made while a rotation seals the switch: sealed into the next chain, after its opening record. */
  #held: Array<{ fields: AuditFields; resolve(record: AuditRecord): void; reject(error: unknown): void }> | null = null;
  #rotating = false;
  /** Where a rotation keeps its key and journal; unset: rotate() refuses. */
  rotation: { home: string; instance: string; pauseAt?: string } | undefined;

  constructor(
    private readonly database: Database, private signingKey: AuditSigningKey, public chainId: string,
    private readonly now: () => Date, private readonly onCheckpoint?: (checkpoint: SignedCheckpoint) => void,
  ) {}

  append(fields: AuditFields): Promise<AuditRecord> {
    if (this.#closed) return Promise.reject(new AuditClosedError());
    if (this.#held !== null) return new Promise((resolve, reject) => this.#held!.push({ fields, resolve, reject }));
    let sealed: SealedRecord;
    try {
      sealed = sealAppended(fields, { v: 1, seq: this.#tip.seq + 1, ts: this.now().toISOString(), prev: this.#tip.hash });
    } catch (error) {
      return Promise.reject(error);
    }
    this.#tip = { seq: sealed.record.seq, hash: sealed.record.hash };
    if (sealed.record.seq === 1) this.#trail = trailIdOf(sealed.record.hash);
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

  /** gw audit rotate: the chain closed and the next opened in one transaction (postgres-chain-rotation.ts). */
  async rotate(): Promise<RotationSummary> {
    if (this.rotation === undefined) throw new AuditRotationError('this trail was opened without a home for its keys');
    if (this.#rotating || this.#closed) throw new AuditRotationError(this.#closed ? 'the audit trail is closing' : 'a rotation is already under way');
    this.#rotating = true;
    try {
      return await rotateChain(this.#rotationHost(this.rotation));
    } finally {
      this.#rotating = false;
    }
  }

  #rotationHost(where: { home: string; instance: string; pauseAt?: string }): RotationHost {
    return {
      ...where, database: this.database, now: this.now, chainId: this.chainId, key: this.signingKey,
      hold: async () => {
        this.#held = [];
        await this.flush();
        if (this.#trail === null) throw new AuditRotationError('the chain has no records yet');
        return { tip: this.#durable, trail: this.#trail };
      },
      release: (next) => {
        if (next) {
          this.chainId = next.chainId;
          this.signingKey = next.key;
          this.#tip = next.head;
          this.#durable = next.head;
          this.#trail = next.trail;
          for (const checkpoint of next.checkpoints) this.onCheckpoint?.(checkpoint);
        }
        const held = this.#held ?? [];
        this.#held = null;
        for (const entry of held) this.append(entry.fields).then((record) => entry.resolve(record), (error: unknown) => entry.reject(error));
      },
    };
  }

  /**
   * Appends gateway.stop and waits for the queue, at most CLOSE_WAIT_MS: with PostgreSQL gone a
   * stop must still end. What could not be committed is counted in the error, so the operator
   * knows how many records (never acknowledged ones) were lost.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      while (this.#rotating) await new Promise((resolve) => setTimeout(resolve, 20));
      const stopped = this.append({ kind: 'gateway.stop', data: { pid: process.pid } }).catch(() => undefined);
      this.#closed = true;
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = await Promise.race([
        this.flush().then(() => stopped).then(() => false),
        new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(true), CLOSE_WAIT_MS); }),
      ]);
      clearTimeout(timer);
      if (gaveUp) {
        const lost = this.#queue.length;
        this.#abandoned = true;
        for (const entry of this.#queue.splice(0)) entry.reject(new Error('the audit store was unreachable when gw stopped'));
        throw new Error(`${lost} audit records were not committed: PostgreSQL did not answer within ${CLOSE_WAIT_MS / 1000} s of the stop (${this.#problem ?? 'no answer'})`);
      }
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
    while (this.#queue.length > 0 && !this.#abandoned) {
      const batch = this.#queue.slice(0, MAX_BATCH);
      let checkpoint: SignedCheckpoint;
      try {
        checkpoint = await this.#commit(batch);
      } catch (error) {
        this.#problem = `audit store unreachable: ${error instanceof Error ? error.message : String(error)}`;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      this.#problem = null;
      this.#queue.splice(0, batch.length);
      const last = batch.at(-1)!.sealed.record;
      this.#durable = { seq: last.seq, hash: last.hash };
      this.onCheckpoint?.(checkpoint);
      for (const entry of batch) entry.resolve(entry.sealed.record);
    }
  }

  async #commit(batch: Pending[]): Promise<SignedCheckpoint> {
    const last = batch.at(-1)!.sealed.record;
    const checkpoint = signCheckpointWithKey(this.signingKey.privateKey, this.signingKey.publicKey, this.#trail!, { seq: last.seq, hash: last.hash });
    // One statement, so one round trip and atomic on its own: the records and the checkpoint that covers them.
    // Lines are JCS JSON, which never holds a raw newline, so the batch travels as newline-joined text:
    // far cheaper to send than a text[] parameter, whose every element pg would escape.
    // A retried commit may have landed before its acknowledgement was lost: rows already there are skipped.
    const records = batch.map((entry) => entry.sealed.record);
    await this.database.query(
      `WITH added AS (
         INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line, facets)
         SELECT $1, $2::bigint + n - 1, ts::timestamptz, kind, line, nullif(facets, '')::jsonb
         FROM unnest(string_to_array($3, E'\\n'), string_to_array($4, E'\\n'), string_to_array($5, E'\\n'), string_to_array($9, E'\\n'))
           WITH ORDINALITY AS batch (line, ts, kind, facets, n)
         ON CONFLICT (chain_id, seq) DO NOTHING
       )
       UPDATE gw_audit_chains SET head_seq = $6, head_hash = $7, checkpoint = $8 WHERE chain_id = $1`,
      [this.chainId, records[0]!.seq, batch.map((entry) => entry.sealed.line).join('\n'), records.map((record) => record.ts).join('\n'),
        records.map((record) => record.kind).join('\n'), last.seq, last.hash, checkpoint,
        records.map((record) => { const facets = requestFacets(record); return facets ? JSON.stringify(facets) : ''; }).join('\n')],
    );
    return checkpoint;
  }
}
