// The audit trail on PostgreSQL (gw serve --store): `gw audit verify --store URL` checks
// every chain, `gw audit chains` lists them (`gw audit export`, in audit-export.ts, writes one).
import type { Command } from 'commander';
import { describeDatabaseError, openDatabase, type Database } from '../../postgres/database.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { listChains, verifyChains, type ChainVerdict } from '../../postgres/postgres-audit-chains.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { fingerprintOf } from '../../audit/trust-file.js';
import { compareInventory, type InventoryChain } from '../../audit/compare-witness.js';
import { readWitness } from '../read-witness.js';
import { chainOpeningOf } from '../../audit/read-chain-opening.js';
import type { ChainOpening } from '../../audit/witness-inventory.js';
import { resolveTrustedKeys, type TrustFlags, type TrustedKeys } from '../trusted-keys.js';

export async function withDatabase<T>(url: string, run: (database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase(url, { maxConnections: 2 });
  try {
    return await run(database);
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(2, `cannot read the audit trail in ${describeDatabaseError(url, error)}`);
  } finally {
    await database.end().catch(() => undefined);
  }
}

function storeUrlOf(context: CliContext, flag: string | undefined): string {
  const url = resolveStoreUrl(flag, context.env);
  if (url === undefined) throw new CliExit(2, 'name the PostgreSQL store with --store URL (or GW_DATABASE_URL)');
  return url;
}

/** Each --key must sign a chain in the store: a key whose chains are gone is a deleted chain. */
function keysWithoutChain(named: TrustedKeys['named'], verdicts: readonly ChainVerdict[]): string[] {
  const signers = new Set(verdicts.map((verdict) => verdict.checkpoint?.public_key));
  return named.filter((entry) => !signers.has(entry.key)).map((entry) => `--key ${entry.source} (${fingerprintOf(entry.key)}) signs no chain in the store: its chains were deleted, or it never wrote here`);
}

/** Each chain's record 1 when it names the chain a rotation closed (audit.chain_opened). */
async function openingsOf(database: Database): Promise<Map<string, ChainOpening>> {
  const { rows } = await database.query<{ chain_id: string; line: string }>('SELECT chain_id, line FROM gw_audit_records WHERE seq = 1');
  return new Map(rows.flatMap((row) => {
    const opening = chainOpeningOf(row.line);
    return opening ? [[row.chain_id, opening] as const] : [];
  }));
}

/** Each chain as the witness comparison reads it. */
function inventoryOf(verdicts: readonly ChainVerdict[], openings: ReadonlyMap<string, ChainOpening>): InventoryChain[] {
  return verdicts.map((verdict) => {
    const opening = openings.get(verdict.chainId);
    return {
      name: `chain ${verdict.chainId}`, head: verdict.result.head, hashesAt: verdict.result.hashesAt ?? new Map(),
      ...(verdict.result.trail ? { trail: verdict.result.trail } : {}), ...(verdict.checkpoint ? { publicKey: verdict.checkpoint.public_key } : {}),
      ...(opening ? { opening } : {}),
    };
  });
}

export async function runStoreVerify(flags: TrustFlags & { store?: string; json?: boolean; home?: string; allowUntrusted?: boolean; witness?: string }, context: CliContext): Promise<void> {
  const url = storeUrlOf(context, flags.store);
  const home = context.home(flags.home);
  const trust = await resolveTrustedKeys(home, flags);
  const witnessed = flags.witness === undefined ? undefined : await readWitness(flags.witness, home, context.env);
  const collectSeqs = witnessed ? new Set(witnessed.map((entry) => entry.seq)) : undefined;
  const [verdicts, openings] = await withDatabase(url, async (database) => [
    await verifyChains(database, { trustedKeys: trust.keys, allowUntrusted: flags.allowUntrusted === true, ...(collectSeqs ? { collectSeqs } : {}) }),
    witnessed ? await openingsOf(database) : new Map<string, ChainOpening>(),
  ] as const);
  const missing = keysWithoutChain(trust.named, verdicts);
  const witness = witnessed ? compareInventory(inventoryOf(verdicts, openings), witnessed) : undefined;
  const broken = verdicts.filter((verdict) => !verdict.result.ok);
  const ok = broken.length === 0 && missing.length === 0 && witness?.ok !== false;
  if (flags.json) {
    const chains = verdicts.map(({ result: { hashesAt: _collected, ...result }, ...chain }) => ({ ...chain, result }));
    context.stdout.write(`${JSON.stringify({ ok, chains, missing, ...(witness ? { witness: { source: flags.witness, ...witness } } : {}) })}\n`);
  } else {
    for (const note of [...trust.notes, ...(witness?.notes ?? [])]) context.stderr.write(`note: ${note}\n`);
    for (const verdict of verdicts) {
      const { result } = verdict;
      const name = `chain ${verdict.chainId} (${verdict.instance}, from ${verdict.startedAt})`;
      for (const warning of result.warnings) context.stderr.write(`warning: ${name}: ${warning}\n`);
      const bad = result.firstBad;
      context.stdout.write(result.ok
        ? `${name}: intact${result.untrusted ? ' but UNTRUSTED' : ''}, ${result.records} records${result.signedBy ? `, signed by ${fingerprintOf(result.signedBy)}` : ''}${result.trustedByRotationFrom ? ` (trusted by rotation from ${result.trustedByRotationFrom})` : ''}${result.closed ? ', closed' : ''}\n`
        : `${name}: BROKEN${bad?.seq !== undefined ? ` at seq ${bad.seq}` : ''}: ${bad?.reason ?? 'unknown'}\n`);
    }
    for (const line of missing) context.stdout.write(`MISSING: ${line}\n`);
    for (const finding of witness?.findings ?? []) context.stdout.write(`witness ${flags.witness}: MISMATCH: ${finding}\n`);
    if (witness?.ok) context.stdout.write(`witness ${flags.witness}: consistent (witnessed up to seq ${witness.witnessedSeq ?? 0})\n`);
    context.stdout.write(`${verdicts.length} chains, ${broken.length === 0 ? 'all intact' : `${broken.length} BROKEN`}${missing.length > 0 ? `, ${missing.length} MISSING` : ''}\n`);
  }
  if (!ok) throw new CliExit(1, '');
}

export function registerAuditStoreCommands(audit: Command, context: CliContext): void {
  audit
    .command('chains')
    .description('List the chains of the PostgreSQL trail: one per instance boot')
    .option('--store <url>', 'the PostgreSQL store (GW_DATABASE_URL)')
    .action(async (flags: { store?: string }) => {
      const url = storeUrlOf(context, flags.store);
      const chains = await withDatabase(url, listChains);
      for (const chain of chains) context.stdout.write(`${chain.chainId}  ${chain.instance}  ${chain.startedAt}  ${chain.headSeq} records\n`);
    });
}
