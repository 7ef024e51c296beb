// The steps of a rotation of a running PostgreSQL trail, in order: next key and journal in the
// home (durable), appends held and the queue drained, the one transaction (postgres-audit-rotation.ts),
// the next key installed, the journal removed, the held appends released into the new chain.
// GW_TEST_ROTATE_PAUSE (test only, handed in as pauseAt) stops it at 'journal', 'closed-checkpoint' (the transaction
// committed) or 'new-key'.
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChainHead, SignedCheckpoint } from '../audit/checkpoint.js';
import { trailIdOf } from '../audit/checkpoint.js';
import { fingerprintOf } from '../audit/key-fingerprint.js';
import { endRotation, installNextKey, NEXT_SIGNING_KEY_FILE, pauseForTest, syncFolder, writeRotationJournal } from '../audit/rotation-journal.js';
import { loadOrCreateSigningKey, rawPublicKey, writePublicKey, type AuditSigningKey } from '../audit/signing-key.js';
import type { RotationSummary } from '../audit/file-trail-handle.js';
import type { Database } from './database.js';
import { commitRotation, sealRotation } from './postgres-audit-rotation.js';

export interface NextChain {
  chainId: string;
  key: AuditSigningKey;
  head: ChainHead;
  trail: string;
  checkpoints: SignedCheckpoint[];
}

export interface RotationHost {
  home: string;
  instance: string;
  database: Database;
  now: () => Date;
  chainId: string;
  key: AuditSigningKey;
  /** TEST ONLY: the step to stop at (GW_TEST_ROTATE_PAUSE). */
  pauseAt?: string;
  /** Holds new appends and drains the queue: the durable tip and trail id of the chain to close. */
  hold(): Promise<{ tip: ChainHead; trail: string }>;
  /** Switches to the next chain (or, with none, stays) and lets the held appends through. */
  release(next?: NextChain): void;
}

async function writeNextKey(home: string): Promise<AuditSigningKey> {
  const { privateKey } = generateKeyPairSync('ed25519');
  await writeFile(path.join(home, NEXT_SIGNING_KEY_FILE), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flush: true });
  await syncFolder(home);
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

export async function rotateChain(host: RotationHost): Promise<RotationSummary> {
  const next = await writeNextKey(host.home);
  await writeRotationJournal(host.home, { v: 1, chain: host.chainId, next_public_key: next.publicKey, started_at: host.now().toISOString() });
  await pauseForTest('journal', host.pauseAt);
  let sealed;
  try {
    const { tip, trail } = await host.hold();
    sealed = sealRotation(tip, trail, host.key, next, host.now());
    await commitRotation(host.database, host.chainId, sealed, host.instance, host.now());
  } catch (error) {
    // Nothing was committed: the rotation is undone and the held calls go to the old chain.
    await endRotation(host.home);
    host.release();
    throw error;
  }
  await pauseForTest('closed-checkpoint', host.pauseAt);
  await installNextKey(host.home);
  const key = await loadOrCreateSigningKey(host.home);
  await writePublicKey(host.home, key);
  await pauseForTest('new-key', host.pauseAt);
  await endRotation(host.home);
  const head = { seq: 1, hash: sealed.opening.record.hash };
  const previous = host.key;
  host.release({ chainId: sealed.chainId, key, head, trail: trailIdOf(head.hash), checkpoints: [sealed.closed, sealed.opened] });
  return {
    closed_trail: sealed.closed.trail, closed_seq: sealed.closed.seq, closed_hash: sealed.closed.hash, previous_key_fingerprint: fingerprintOf(previous.publicKey),
    next_public_key: key.publicKey, next_key_fingerprint: fingerprintOf(key.publicKey), trail: sealed.chainId,
  };
}
