// What an insider with the PostgreSQL store does to an instance's chain, shared by the trust
// test (test/e2e/scale-out/postgres-audit-trust.test.ts) and the insider contract test.
import { generateKeyPairSync } from 'node:crypto';
import { sealRecord, type UnsealedRecord } from '../../../src/audit/chain.js';
import { signCheckpointWithKey, trailIdOf } from '../../../src/audit/checkpoint.js';
import { requestFacets } from '../../../src/postgres/request-facets.js';

async function withClient<T>(store: string, run: (client: import('pg').Client) => Promise<T>): Promise<T> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: store });
  await client.connect();
  try { return await run(client); } finally { await client.end(); }
}

/** The chain a gw process wrote (its instance column ends in its pid). */
export async function chainOfPid(store: string, pid: number): Promise<string> {
  return withClient(store, async (client) => (await client.query<{ chain_id: string }>('SELECT chain_id FROM gw_audit_chains WHERE instance LIKE $1', [`%:${pid}`])).rows[0]!.chain_id);
}

/** Edit a request's person and status, re-seal every record after it, rewrite the facets, and sign a new checkpoint under a key of the insider's own. */
export async function rewriteAndResign(store: string, chainId: string): Promise<void> {
  await withClient(store, async (client) => {
    const { rows } = await client.query<{ seq: string; line: string }>('SELECT seq, line FROM gw_audit_records WHERE chain_id = $1 ORDER BY seq', [chainId]);
    const records = rows.map((row) => JSON.parse(row.line) as UnsealedRecord & { hash?: string; kind: string; person?: unknown; status?: unknown });
    const target = records.findIndex((record) => record.kind === 'request');
    if (target < 1) throw new Error(`chain ${chainId} has no request record after record 1`);
    records[target]!.person = 'someone-else@example.com';
    records[target]!.status = 500;
    let prev = records[target - 1]!.hash!;
    let head = { seq: 0, hash: '' };
    for (const record of records.slice(target)) {
      delete record.hash;
      const sealed = sealRecord({ ...record, prev });
      prev = sealed.record.hash;
      head = { seq: sealed.record.seq, hash: sealed.record.hash };
      const facets = requestFacets(sealed.record);
      await client.query('UPDATE gw_audit_records SET line = $1, facets = $2 WHERE chain_id = $3 AND seq = $4',
        [sealed.line, facets === null ? null : JSON.stringify(facets), chainId, sealed.record.seq]);
    }
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'jwk' }).x!;
    const checkpoint = signCheckpointWithKey(privateKey, raw, trailIdOf(records[0]!.hash!), head);
    await client.query('UPDATE gw_audit_chains SET checkpoint = $1, head_hash = $2 WHERE chain_id = $3', [JSON.stringify(checkpoint), head.hash, chainId]);
  });
}

/** A whole chain gone: its records and its row. */
export async function deleteChain(store: string, chainId: string): Promise<void> {
  await withClient(store, async (client) => {
    await client.query('DELETE FROM gw_audit_records WHERE chain_id = $1', [chainId]);
    await client.query('DELETE FROM gw_audit_chains WHERE chain_id = $1', [chainId]);
  });
}
