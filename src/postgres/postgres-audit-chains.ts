// Reading the PostgreSQL trail back: every chain, checked by the same verifier as
// audit.jsonl (src/audit/verify.ts) against its checkpoint row, and exported as the
// JSON Lines that verifier reads from a file.
import { verifyLines, type VerifyResult } from '../audit/verify.js';
import type { Checkpoint } from '../audit/checkpoint.js';
import { auditKeyId } from './postgres-audit-trail.js';
import type { Database } from './database.js';

// Records fetched per round trip; keyset pagination keeps memory flat on long chains.
const PAGE = 5_000;

export interface ChainInfo {
  chainId: string;
  instance: string;
  startedAt: string;
  headSeq: number;
  checkpoint: (Checkpoint & { key_id?: string }) | null;
}

export interface ChainVerdict extends ChainInfo {
  result: VerifyResult;
}

export async function listChains(database: Database): Promise<ChainInfo[]> {
  const result = await database.query<{ chain_id: string; instance: string; started_at: Date; head_seq: string; checkpoint: (Checkpoint & { key_id?: string }) | null }>(
    'SELECT chain_id, instance, started_at, head_seq, checkpoint FROM gw_audit_chains ORDER BY started_at, chain_id',
  );
  return result.rows.map((row) => ({ chainId: row.chain_id, instance: row.instance, startedAt: row.started_at.toISOString(), headSeq: Number(row.head_seq), checkpoint: row.checkpoint }));
}

export async function* chainLines(database: Database, chainId: string): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const page = await database.query<{ seq: string; line: string }>('SELECT seq, line FROM gw_audit_records WHERE chain_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [chainId, after, PAGE]);
    for (const row of page.rows) yield row.line;
    if (page.rows.length < PAGE) return;
    after = Number(page.rows.at(-1)!.seq);
  }
}

/**
 * Verifies each chain: links and hashes record by record, its end against the checkpoint row.
 * `keys` are the audit.key files this verifier holds; a checkpoint made with another key is
 * checked for seq and hash only, and a warning says its HMAC could not be.
 */
export async function verifyChains(database: Database, keys: readonly Buffer[]): Promise<ChainVerdict[]> {
  const verdicts: ChainVerdict[] = [];
  for (const chain of await listChains(database)) {
    const key = keys.find((candidate) => chain.checkpoint?.key_id === auditKeyId(candidate));
    const checkpoint = chain.checkpoint ? { seq: chain.checkpoint.seq, hash: chain.checkpoint.hash, hmac: chain.checkpoint.hmac } : undefined;
    const result = await verifyLines(chainLines(database, chain.chainId), { ...(checkpoint ? { checkpoint } : {}), ...(key ? { key } : {}), requireSeal: key !== undefined });
    if (chain.checkpoint === null) result.warnings.push('no checkpoint yet (the chain\'s first commit has not landed)');
    verdicts.push({ ...chain, result });
  }
  return verdicts;
}
