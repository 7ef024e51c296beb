// The witnesses' cosignatures of the PostgreSQL chains' checkpoints (gw_audit_cosignatures,
// migrations/postgres/0003): kept by each instance as its witnesses answer, read by
// `gw audit export --format ocsf --store`.
import type { StoredCosignature } from '../audit/cosignature.js';
import type { Database } from './database.js';

interface CosignatureRow {
  trail: string;
  seq: string;
  hash: string;
  closed: boolean;
  public_key: string;
  checkpoint_signature: string;
  witness_public_key: string;
  signature: string;
  witness: string;
  received_at: Date;
}

/** A repeated answer (the same witness key at the same seq) is kept once. */
export async function insertCosignature(database: Database, stored: StoredCosignature): Promise<void> {
  await database.query(
    `INSERT INTO gw_audit_cosignatures (trail, seq, hash, closed, public_key, checkpoint_signature, witness_public_key, signature, witness, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
    [stored.trail, stored.seq, stored.hash, stored.closed === true, stored.public_key, stored.checkpoint_signature, stored.witness_public_key, stored.signature, stored.witness, stored.received_at],
  );
}

/** The cosignatures of one chain (by its trail id), by seq. A store not migrated to 0003 has none. */
export async function chainCosignatures(database: Database, trail: string): Promise<StoredCosignature[]> {
  let rows: CosignatureRow[];
  try {
    rows = (await database.query<CosignatureRow>('SELECT * FROM gw_audit_cosignatures WHERE trail = $1 ORDER BY seq, witness_public_key', [trail])).rows;
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return []; // undefined_table: gw db migrate has not run yet
    throw error;
  }
  return rows.map((row) => ({
    trail: row.trail, seq: Number(row.seq), hash: row.hash, ...(row.closed ? { closed: true as const } : {}),
    public_key: row.public_key, checkpoint_signature: row.checkpoint_signature, witness_public_key: row.witness_public_key,
    signature: row.signature, witness: row.witness, received_at: row.received_at.toISOString(),
  }));
}
