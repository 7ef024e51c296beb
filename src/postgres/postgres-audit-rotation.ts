// gw audit rotate on PostgreSQL: the instance's chain is closed and the next one opened in ONE
// transaction (the closing record with its closed checkpoint under the old key, the new chain's
// row, its opening record with its checkpoint under the new key), so the store never holds a
// closed chain without its successor or the reverse. The home keeps the rest: the next key and the
// journal are written before the transaction, the key installed after it; a start (or an offline
// rotate) finishes from the journal: roll forward if the chain is closed in the store, else undo.
import { randomUUID } from 'node:crypto';
import { GENESIS_PREV, sealAppended, type SealedRecord } from '../audit/chain.js';
import { readCheckpoint, signCheckpointWithKey, trailIdOf, type ChainHead, type SignedCheckpoint } from '../audit/checkpoint.js';
import { closedChainEvidence, openingData } from '../audit/closed-chains.js';
import { endRotation, installNextKey, readRotationJournal } from '../audit/rotation-journal.js';
import type { ChainToTrust } from '../audit/rotation-trust.js';
import type { AuditSigningKey } from '../audit/signing-key.js';
import { fingerprintOf } from '../audit/key-fingerprint.js';
import { inTransaction, type Database } from './database.js';
import type pg from 'pg';

export interface StoreRotation {
  closing: SealedRecord;
  closed: SignedCheckpoint;
  chainId: string;
  opening: SealedRecord;
  opened: SignedCheckpoint;
}

/** Seals the closing record after `tip`, its closed checkpoint, and record 1 of the next chain with its checkpoint. */
export function sealRotation(tip: ChainHead, trail: string, oldKey: AuditSigningKey, nextKey: AuditSigningKey, now: Date): StoreRotation {
  const ts = now.toISOString();
  const data = { reason: 'rotate', next_public_key: nextKey.publicKey, next_key_fingerprint: fingerprintOf(nextKey.publicKey) };
  const closing = sealAppended({ kind: 'audit.chain_closed', data }, { v: 1, seq: tip.seq + 1, ts, prev: tip.hash });
  const closed = signCheckpointWithKey(oldKey.privateKey, oldKey.publicKey, trail, { seq: closing.record.seq, hash: closing.record.hash }, true);
  const opening = sealAppended({ kind: 'audit.chain_opened', data: openingData(closed) }, { v: 1, seq: 1, ts, prev: GENESIS_PREV });
  const opened = signCheckpointWithKey(nextKey.privateKey, nextKey.publicKey, trailIdOf(opening.record.hash), { seq: 1, hash: opening.record.hash });
  return { closing, closed, chainId: randomUUID(), opening, opened };
}

async function insertRecord(client: pg.PoolClient, chainId: string, sealed: SealedRecord): Promise<void> {
  await client.query('INSERT INTO gw_audit_records (chain_id, seq, ts, kind, line) VALUES ($1, $2, $3, $4, $5)',
    [chainId, sealed.record.seq, sealed.record.ts, sealed.record.kind, sealed.line]);
}

/** The one transaction: old chain closed, new chain opened. */
export async function commitRotation(database: Database, oldChainId: string, rotation: StoreRotation, instance: string, now: Date): Promise<void> {
  await inTransaction(database, async (client) => {
    await insertRecord(client, oldChainId, rotation.closing);
    await client.query('UPDATE gw_audit_chains SET head_seq = $2, head_hash = $3, checkpoint = $4 WHERE chain_id = $1',
      [oldChainId, rotation.closing.record.seq, rotation.closing.record.hash, rotation.closed]);
    await client.query('INSERT INTO gw_audit_chains (chain_id, instance, started_at, head_seq, head_hash, checkpoint) VALUES ($1, $2, $3, 1, $4, $5)',
      [rotation.chainId, instance, now, rotation.opening.record.hash, rotation.opened]);
    await insertRecord(client, rotation.chainId, rotation.opening);
  });
}

/** At start: a rotation the last run left is finished (the chain is closed in the store: the next key goes in place) or undone. */
export async function recoverStoreRotation(database: Database, home: string): Promise<string | null> {
  const journal = await readRotationJournal(home);
  if (journal === null) return null;
  const row = await database.query<{ closed: string | null }>("SELECT checkpoint->>'closed' AS closed FROM gw_audit_chains WHERE chain_id::text = $1", [journal.chain]);
  const closed = row.rows[0]?.closed === 'true';
  if (closed) await installNextKey(home);
  await endRotation(home);
  return closed
    ? `an interrupted audit rotation was completed: chain ${journal.chain} is closed in the store, the new key is in place`
    : 'an audit rotation interrupted before its transaction was undone (the key stays as it was)';
}

/** Every closed chain of the store, as rotation evidence for a start (src/audit/trust-at-start.ts). */
export async function storeRotationEvidence(database: Database): Promise<ChainToTrust[]> {
  const rows = await database.query<{ chain_id: string; checkpoint: unknown; line: string }>(
    `SELECT c.chain_id, c.checkpoint, r.line FROM gw_audit_chains c JOIN gw_audit_records r ON r.chain_id = c.chain_id AND r.seq = c.head_seq
      WHERE c.checkpoint->>'closed' = 'true'`,
  );
  const evidence: ChainToTrust[] = [];
  for (const row of rows.rows) {
    let checkpoint;
    try { checkpoint = readCheckpoint(row.checkpoint); } catch { continue; }
    if (!('signature' in checkpoint)) continue;
    const found = closedChainEvidence(`chain ${row.chain_id}`, checkpoint, row.line);
    if (found !== null) evidence.push(found);
  }
  return evidence;
}

