// The running file trail behind the AuditTrail interface: appends go to the current chain's
// writer, and `rotate()` (gw audit rotate) closes that chain and opens the next under a new key
// while calls keep coming. Appends made once the closing record is sealed wait in `held` and are
// sealed into the new chain after its opening record: every record lands before the close or
// after the opening, never lost, never after a close. Steps and crash behaviour: docs/audit-rotate.md.
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { signCheckpointWithKey, trailIdOf, type SignedCheckpoint } from './checkpoint.js';
import { AuditClosedError, AuditWriteError, type AuditStatus, type GroupCommitWriter } from './group-commit-writer.js';
import type { AuditLock, AuditWriterRole } from './audit-lock.js';
import type { AuditFields, AuditRecord } from './record.js';
import { loadOrCreateSigningKey, rawPublicKey, writePublicKey, type AuditSigningKey } from './signing-key.js';
import { fingerprintOf } from './key-fingerprint.js';
import { moveClosedChain, openingData } from './closed-chains.js';
import { endRotation, installNextKey, NEXT_SIGNING_KEY_FILE, pauseForTest, syncFolder, writeRotationJournal } from './rotation-journal.js';

/** What `gw audit rotate` answers. */
export interface RotationSummary {
  closed_trail: string;
  closed_seq: number;
  closed_hash: string;
  previous_key_fingerprint: string;
  next_public_key: string;
  next_key_fingerprint: string;
  /** The new chain's trail id (file store) or chain id (PostgreSQL). */
  trail: string;
}

export class AuditRotationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditRotationError';
  }
}

export interface FileTrailParts {
  home: string;
  dir: string;
  key: AuditSigningKey;
  role: AuditWriterRole;
  lock: AuditLock;
  writer: GroupCommitWriter;
  closeFile: () => Promise<void>;
  /** Opens a writer on a new, empty audit.jsonl signing with `key`. */
  openWriter(key: AuditSigningKey): Promise<{ writer: GroupCommitWriter; closeFile: () => Promise<void> }>;
  /** TEST ONLY: the rotation step to stop at (GW_TEST_ROTATE_PAUSE). */
  pauseAt?: string;
  /** Writes the checkpoint file (durably) and tells the witnesses. */
  writeCheckpoint(checkpoint: SignedCheckpoint): Promise<void>;
}

interface Held {
  fields: AuditFields;
  resolve(record: AuditRecord): void;
  reject(error: Error): void;
}

/** Writes the next private key (PKCS#8 PEM, 0600, fsync'd) before anything names it. */
async function writeNextKey(home: string): Promise<AuditSigningKey> {
  const { privateKey } = generateKeyPairSync('ed25519');
  await writeFile(path.join(home, NEXT_SIGNING_KEY_FILE), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flush: true });
  await syncFolder(home);
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

export class FileTrailHandle {
  #held: Held[] | null = null;
  #rotating: Promise<unknown> | null = null;
  #closing: Promise<void> | undefined;
  #broken: string | null = null;

  constructor(private readonly parts: FileTrailParts) {}

  append(fields: AuditFields): Promise<AuditRecord> {
    if (this.#held === null) return this.parts.writer.append(fields);
    if (this.#closing) return Promise.reject(new AuditClosedError());
    return new Promise((resolve, reject) => this.#held!.push({ fields, resolve, reject }));
  }

  status(): AuditStatus {
    return this.#broken === null ? this.parts.writer.status() : { ok: false, reason: this.#broken };
  }

  async flush(): Promise<void> {
    await this.#rotating?.catch(() => undefined);
    await this.parts.writer.flush();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#rotating?.catch(() => undefined);
      try {
        if (this.parts.role === 'gateway' && this.#broken === null) await this.parts.writer.append({ kind: 'gateway.stop', data: { pid: process.pid } });
      } finally {
        await this.parts.writer.close();
        await this.parts.closeFile().catch(() => undefined);
        await this.parts.lock.release();
      }
    })();
    return this.#closing;
  }

  rotate(): Promise<RotationSummary> {
    if (this.#rotating || this.#closing) return Promise.reject(new AuditRotationError(this.#closing ? 'the audit trail is closing' : 'a rotation is already under way'));
    const rotation = this.#rotate();
    this.#rotating = rotation.finally(() => { this.#rotating = null; });
    return rotation;
  }

  async #rotate(): Promise<RotationSummary> {
    const { home } = this.parts;
    await this.parts.writer.flush();
    const { firstHash } = this.parts.writer.chainHead();
    if (firstHash === null) throw new AuditRotationError('the audit trail has no records yet: there is no chain to close');
    const trail = trailIdOf(firstHash);
    const next = await writeNextKey(home);
    await writeRotationJournal(home, { v: 1, chain: trail, next_public_key: next.publicKey, started_at: new Date().toISOString() });
    await pauseForTest('journal', this.parts.pauseAt);
    const closingRecord = await this.#appendClosing(next);
    await pauseForTest('closing-record', this.parts.pauseAt);
    return this.#switchChains(trail, closingRecord, next).catch((error: unknown) => {
      // Past the closing record there is no going back: the next start completes the rotation from the journal.
      this.#broken = `the audit rotation stopped half-way (${error instanceof Error ? error.message : String(error)}): restart gw to complete it`;
      for (const held of this.#held?.splice(0) ?? []) held.reject(new AuditWriteError(this.#broken));
      throw error;
    });
  }

  /** Seals the closing record; every append from here on waits for the new chain. */
  async #appendClosing(next: AuditSigningKey): Promise<AuditRecord> {
    this.#held = [];
    // Everything before the closing record gets its plain checkpoint; the closing record gets only the closed one.
    await this.parts.writer.flush();
    this.parts.writer.holdCheckpoints();
    const closing = this.parts.writer.append({ kind: 'audit.chain_closed', data: { reason: 'rotate', next_public_key: next.publicKey, next_key_fingerprint: fingerprintOf(next.publicKey) } });
    try {
      const record = await closing;
      await this.parts.writer.flush();
      return record;
    } catch (error) {
      // The closing record is not in the chain: the rotation is undone, the waiting calls go to the old chain.
      this.parts.writer.holdCheckpoints(false);
      await endRotation(this.parts.home);
      this.#release(this.parts.writer);
      throw error;
    }
  }

  async #switchChains(trail: string, closing: AuditRecord, next: AuditSigningKey): Promise<RotationSummary> {
    const { home, dir } = this.parts;
    const old = this.parts.key;
    await this.parts.writer.close();
    const closed = signCheckpointWithKey(old.privateKey, old.publicKey, trail, { seq: closing.seq, hash: closing.hash }, true);
    await this.parts.writeCheckpoint(closed);
    await pauseForTest('closed-checkpoint', this.parts.pauseAt);
    await this.parts.closeFile();
    await moveClosedChain(dir, trail, closed);
    await pauseForTest('moved', this.parts.pauseAt);
    await installNextKey(home);
    const key = await loadOrCreateSigningKey(home);
    if (key.publicKey !== next.publicKey) throw new Error('the installed audit key is not the one the rotation prepared (audit-signing.key.next): the start recovers the rotation');
    await writePublicKey(home, key);
    await pauseForTest('new-key', this.parts.pauseAt);
    const opened = await this.parts.openWriter(key);
    Object.assign(this.parts, { key, writer: opened.writer, closeFile: opened.closeFile });
    const first = await opened.writer.append({ kind: 'audit.chain_opened', data: openingData(closed) });
    await pauseForTest('opening-record', this.parts.pauseAt);
    await opened.writer.flush();
    await pauseForTest('opened', this.parts.pauseAt);
    await endRotation(home);
    this.#release(opened.writer);
    return {
      closed_trail: trail, closed_seq: closing.seq, closed_hash: closing.hash, previous_key_fingerprint: fingerprintOf(old.publicKey),
      next_public_key: key.publicKey, next_key_fingerprint: fingerprintOf(key.publicKey), trail: trailIdOf(first.hash),
    };
  }

  /** The appends that waited during the rotation, in their order, into `writer`. */
  #release(writer: GroupCommitWriter): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const entry of held) writer.append(entry.fields).then((record) => entry.resolve(record), (error: Error) => entry.reject(error));
  }
}
