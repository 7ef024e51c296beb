// Reading the PostgreSQL trail back: every chain, checked by the same verifier as
// audit.jsonl (src/audit/verify.ts) against its checkpoint row, and exported as the
// JSON Lines that verifier reads from a file.
import { verifyLines, type VerifyResult } from '../audit/verify.js';
import type { SignedCheckpoint } from '../audit/checkpoint.js';
import type { Database } from './database.js';
import { facetsAgree } from './request-facets.js';
import { applyRotationTrust, checkClosedChainsFollowed } from '../audit/rotation-trust.js';

// Records fetched per round trip; keyset pagination keeps memory flat on long chains.
const PAGE = 5_000;

export interface ChainInfo {
  chainId: string;
  instance: string;
  startedAt: string;
  headSeq: number;
  checkpoint: SignedCheckpoint | null;
}

export interface ChainVerdict extends ChainInfo {
  result: VerifyResult;
}

export async function listChains(database: Database): Promise<ChainInfo[]> {
  const result = await database.query<{ chain_id: string; instance: string; started_at: Date; head_seq: string; checkpoint: SignedCheckpoint | null }>(
    'SELECT chain_id, instance, started_at, head_seq, checkpoint FROM gw_audit_chains ORDER BY started_at, chain_id',
  );
  return result.rows.map((row) => ({ chainId: row.chain_id, instance: row.instance, startedAt: row.started_at.toISOString(), headSeq: Number(row.head_seq), checkpoint: row.checkpoint }));
}

/** One chain's lines after seq `after`, up to seq `upTo`, in seq order: at most `limit` (the audit sink reads a batch). */
export async function chainLinesAfter(database: Database, chainId: string, after: number, upTo: number, limit: number): Promise<string[]> {
  const result = await database.query<{ line: string }>(
    'SELECT line FROM gw_audit_records WHERE chain_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4', [chainId, after, upTo, limit],
  );
  return result.rows.map((row) => row.line);
}

/** A chain's lines in seq order; `onFacets` sees each row's stored facets beside its line. */
export async function* chainLines(database: Database, chainId: string, onFacets?: (seq: number, line: string, facets: unknown) => void): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const page = await database.query<{ seq: string; line: string; facets: unknown }>(
      `SELECT seq, line${onFacets ? ', facets' : ''} FROM gw_audit_records WHERE chain_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [chainId, after, PAGE],
    );
    for (const row of page.rows) {
      onFacets?.(Number(row.seq), row.line, row.facets);
      yield row.line;
    }
    if (page.rows.length < PAGE) return;
    after = Number(page.rows.at(-1)!.seq);
  }
}

export interface ChainTrust {
  /** Keys the verifier trusts (--key, the trust file): a chain signed by any other fails (fail closed). */
  trustedKeys: readonly string[];
  /** Report an untrusted chain (UNTRUSTED) instead of failing it: for looking around. */
  allowUntrusted?: boolean;
  /** Seqs whose hashes each chain's verdict returns (a witness's checkpoints). */
  collectSeqs?: ReadonlySet<number>;
}

/**
 * Verifies each chain: links and hashes record by record, its end against the signed checkpoint
 * row, whose key must be trusted. A chain with records and no checkpoint is a failure too: the
 * checkpoint moves in the same transaction as the records, so only an edit removes it.
 */
export async function verifyChains(database: Database, trust: ChainTrust): Promise<ChainVerdict[]> {
  const verdicts: ChainVerdict[] = [];
  for (const chain of await listChains(database)) {
    // The explorer's copy of each request's fields must be its line's: an edited copy could hide a call.
    let edited: number | null = null;
    const checkFacets = (seq: number, line: string, facets: unknown) => { if (edited === null && !facetsAgree(line, facets)) edited = seq; };
    const result = await verifyLines(chainLines(database, chain.chainId, checkFacets), {
      ...(chain.checkpoint ? { checkpoint: chain.checkpoint } : {}),
      // Trust is decided over all chains at once below: a key may be trusted by a rotation another chain records.
      requireSeal: true,
      ...(trust.collectSeqs ? { collectSeqs: trust.collectSeqs } : {}),
      // The key is the trust list's question here; requireSeal's own pin would name the chain's key.
      ...(chain.checkpoint ? { publicKey: chain.checkpoint.public_key } : {}),
    });
    if (edited !== null && (result.ok || (result.firstBad?.seq ?? Infinity) > edited)) {
      result.ok = false;
      result.firstBad = { line: edited, seq: edited, reason: 'its facets (the explorer\'s copy of its fields) differ from its line: edited in the database' };
    }
    verdicts.push({ ...chain, result });
  }
  const chains = verdicts.map((verdict) => ({ name: `chain ${verdict.chainId}`, result: verdict.result }));
  checkClosedChainsFollowed(chains);
  applyRotationTrust(chains, { trustedKeys: trust.trustedKeys, allowUntrusted: trust.allowUntrusted === true });
  return verdicts;
}
