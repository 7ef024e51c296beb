// The audit trail on PostgreSQL (gw serve --store): `gw audit verify --store URL` checks
// every chain, `gw audit export --store URL --chain ID` writes one as the JSON Lines
// that `gw audit verify --file` accepts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { describeDatabaseError, openDatabase, type Database } from '../../postgres/database.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { chainLines, listChains, verifyChains } from '../../postgres/postgres-audit-chains.js';
import { CliExit, type CliContext } from '../cli-context.js';

async function withDatabase<T>(url: string, run: (database: Database) => Promise<T>): Promise<T> {
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

/** audit.key files that may have sealed chains: this home's, and any named with --key. */
async function readKeys(home: string, extra: readonly string[]): Promise<Buffer[]> {
  const files = [path.join(home, 'audit.key'), ...extra];
  const keys: Buffer[] = [];
  for (const file of files) {
    const key = await readFile(file).catch(() => null);
    if (key !== null) keys.push(key);
  }
  return keys;
}

export async function runStoreVerify(flags: { store?: string; json?: boolean; home?: string; key?: string[] }, context: CliContext): Promise<void> {
  const url = storeUrlOf(context, flags.store);
  const keys = await readKeys(context.home(flags.home), flags.key ?? []);
  const verdicts = await withDatabase(url, (database) => verifyChains(database, keys));
  const broken = verdicts.filter((verdict) => !verdict.result.ok);
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ ok: broken.length === 0, chains: verdicts })}\n`);
  } else {
    for (const verdict of verdicts) {
      const { result } = verdict;
      const name = `chain ${verdict.chainId} (${verdict.instance}, from ${verdict.startedAt})`;
      for (const warning of result.warnings) context.stderr.write(`warning: ${name}: ${warning}\n`);
      const bad = result.firstBad;
      context.stdout.write(result.ok
        ? `${name}: intact, ${result.records} records\n`
        : `${name}: BROKEN${bad?.seq !== undefined ? ` at seq ${bad.seq}` : ''}: ${bad?.reason ?? 'unknown'}\n`);
    }
    context.stdout.write(`${verdicts.length} chains, ${broken.length === 0 ? 'all intact' : `${broken.length} BROKEN`}\n`);
  }
  if (broken.length > 0) throw new CliExit(1, '');
}

export function registerAuditStoreCommands(audit: Command, context: CliContext): void {
  audit
    .command('export')
    .description('Write one chain of the PostgreSQL trail as JSON Lines (verify it with gw audit verify --file)')
    .option('--store <url>', 'the PostgreSQL store (GW_DATABASE_URL)')
    .option('--chain <id>', 'the chain to export (gw audit chains lists them); default: the newest')
    .action(async (flags: { store?: string; chain?: string }) => {
      const url = storeUrlOf(context, flags.store);
      await withDatabase(url, async (database) => {
        const chains = await listChains(database);
        const chain = flags.chain === undefined ? chains.at(-1) : chains.find((candidate) => candidate.chainId === flags.chain);
        if (!chain) throw new CliExit(2, flags.chain === undefined ? 'the store holds no audit chain yet' : `no chain ${flags.chain} in the store (gw audit chains lists them)`);
        for await (const line of chainLines(database, chain.chainId)) context.stdout.write(`${line}\n`);
      });
    });
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
