// The two stores a rotation is tested on, behind one shape so one test body runs against both:
// the home's file trail, and a real PostgreSQL (scripts/database-servers.mjs). Each knows how to
// start a gw on it, verify it, read every chain's records, and what an insider does to it.
import { generateKeyPairSync } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { signCheckpointWithKey } from '../../../src/audit/checkpoint.js';
import { makeHome, runGwSetup as runGw, type CliResult, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { rechainUnderNewKey } from '../audit-witness/rechain.js';
import type { AuditLine, GatewayJar } from '../helpers.js';

export interface RotateBackend {
  name: string;
  setUp(): Promise<void>;
  /** A fresh store for the next test (PostgreSQL: a new database, so no other home's chains are in it). */
  reset(): Promise<void>;
  tearDown(): Promise<void>;
  start(jar: GatewayJar, home?: string, env?: NodeJS.ProcessEnv): Promise<GatewayProcess>;
  /** A virtual key for calls to `gateway`. */
  callKey(gateway: GatewayProcess): string;
  /** Extra arguments (and environment) for a CLI command on this store. */
  cliArgs(): string[];
  verify(home: string, ...args: string[]): Promise<CliResult>;
  /** Every chain's records, each chain in seq order (chains in no particular order). */
  chains(home: string): Promise<AuditLine[][]>;
  /** Edits the closing record (its reason), as an insider would. */
  editClosingRecord(home: string): Promise<void>;
  /** Undoes editClosingRecord where the store cannot be copied (PostgreSQL). */
  editClosingRecordBack?(home: string): Promise<void>;
  /** Puts the new chain under a fresh key pair that no rotation introduced. */
  swapNewChain(home: string): Promise<void>;
}

const parse = (text: string): AuditLine[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditLine);

export function fileBackend(): RotateBackend {
  const keys = new Map<string, string>();
  const chainFiles = async (home: string): Promise<string[]> => {
    const folder = path.join(home, 'audit', 'chains');
    const closed = (await readdir(folder).catch(() => [])).filter((name) => name.endsWith('.jsonl')).map((name) => path.join(folder, name));
    return [...closed, path.join(home, 'audit', 'audit.jsonl')];
  };
  return {
    name: 'file store',
    setUp: async () => undefined,
    reset: async () => undefined,
    tearDown: async () => undefined,
    async start(jar, home, env = {}) {
      const gateway = await jar.start({ ...(home ? { home } : {}), args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn', ...env } });
      if (gateway.bootstrapKey) keys.set(gateway.home, gateway.bootstrapKey);
      return gateway;
    },
    callKey: (gateway) => keys.get(gateway.home)!,
    cliArgs: () => [],
    verify: (home, ...args) => runGw(['audit', 'verify', ...args], { home }),
    async chains(home) {
      return Promise.all((await chainFiles(home)).map(async (file) => parse(await readFile(file, 'utf8').catch(() => ''))));
    },
    async editClosingRecord(home) {
      for (const file of await chainFiles(home)) {
        const text = await readFile(file, 'utf8');
        if (text.includes('"kind":"audit.chain_closed"')) await writeFile(file, text.replace('"reason":"rotate"', '"reason":"routine"'));
      }
    },
    async swapNewChain(home) {
      // Record 1 (the opening record) kept, the rest replaced and sealed under a key of the insider's own.
      await rechainUnderNewKey(home, 1, { rewriteTrust: false });
    },
  };
}

export function postgresBackend(): RotateBackend {
  let postgres: PostgresServer | undefined;
  let store = '';
  let key = '';
  const withClient = async <T>(run: (client: import('pg').Client) => Promise<T>): Promise<T> => {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: store });
    await client.connect();
    try { return await run(client); } finally { await client.end(); }
  };
  return {
    name: 'PostgreSQL',
    async setUp() {
      postgres = await startPostgres();
      await this.reset();
    },
    async reset() {
      store = await postgres!.createDatabase();
      const admin = { env: { GW_HOME: await makeHome('gw-admin-') } };
      const migrated = await runGw(['db', 'migrate', '--store', store], admin);
      if (migrated.code !== 0) throw new Error(migrated.stderr);
      await runGw(['teams', 'create', 'eng', '--store', store], admin);
      const made = await runGw(['keys', 'create', '--team', 'eng', '--name', 'load', '--store', store], admin);
      key = /sk-gw-\w+/.exec(made.stdout + made.stderr)![0];
    },
    tearDown: async () => { await postgres?.destroy(); },
    start: (jar, home, env = {}) => jar.start({ ...(home ? { home } : {}), args: ['--store', store, '--standalone'], env: { GW_LOG_LEVEL: 'warn', ...env } }),
    callKey: () => key,
    cliArgs: () => ['--store', store],
    verify: (home, ...args) => runGw(['audit', 'verify', '--store', store, ...args], { home }),
    async chains() {
      return withClient(async (client) => {
        const { rows } = await client.query<{ chain_id: string; line: string }>('SELECT chain_id, line FROM gw_audit_records ORDER BY chain_id, seq');
        const byChain = new Map<string, AuditLine[]>();
        for (const row of rows) byChain.set(row.chain_id, [...(byChain.get(row.chain_id) ?? []), JSON.parse(row.line) as AuditLine]);
        return [...byChain.values()];
      });
    },
    async editClosingRecord() {
      await withClient((client) => client.query(`UPDATE gw_audit_records SET line = replace(line, '"reason":"rotate"', '"reason":"routine"') WHERE kind = 'audit.chain_closed'`));
    },
    async editClosingRecordBack() {
      await withClient((client) => client.query(`UPDATE gw_audit_records SET line = replace(line, '"reason":"routine"', '"reason":"rotate"') WHERE kind = 'audit.chain_closed'`));
    },
    async swapNewChain() {
      await withClient(async (client) => {
        const { rows } = await client.query<{ chain_id: string; checkpoint: { trail: string; seq: number; hash: string } }>(
          `SELECT c.chain_id, c.checkpoint FROM gw_audit_chains c JOIN gw_audit_records r ON r.chain_id = c.chain_id AND r.seq = 1 WHERE r.kind = 'audit.chain_opened'`);
        const { privateKey, publicKey } = generateKeyPairSync('ed25519');
        const raw = publicKey.export({ format: 'jwk' }).x!;
        for (const row of rows) {
          const checkpoint = signCheckpointWithKey(privateKey, raw, row.checkpoint.trail, row.checkpoint);
          await client.query('UPDATE gw_audit_chains SET checkpoint = $1 WHERE chain_id = $2', [JSON.stringify(checkpoint), row.chain_id]);
        }
      });
    },
  };
}
