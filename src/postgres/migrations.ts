// Schema versions for the PostgreSQL store. Each file in migrations/postgres is
// NNNN_name.sql and is applied once, in order, in its own transaction, by
// `gw db migrate`; `gw serve` only checks, so an upgrade is an explicit act and two
// instances starting together never race to change the schema.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { StateRefusedError } from '../state/state-errors.js';
import { inTransaction, type Database } from './database.js';

/** The repository's migrations folder, from src/postgres or dist/postgres alike. */
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../migrations/postgres');

// Any constant will do, as long as only gw uses it: migrate holds it so two migrators take turns.
const MIGRATION_LOCK = 0x67770001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort();
  return Promise.all(files.map(async (file) => ({
    version: Number(file.slice(0, 4)),
    name: file.slice(5, -4),
    sql: await readFile(path.join(dir, file), 'utf8'),
  })));
}

async function appliedVersion(database: Database): Promise<number> {
  const table = await database.query<{ exists: boolean }>("SELECT to_regclass('gw_schema_migrations') IS NOT NULL AS exists");
  if (!table.rows[0]?.exists) return 0;
  const result = await database.query<{ version: number | null }>('SELECT max(version)::int AS version FROM gw_schema_migrations');
  return result.rows[0]?.version ?? 0;
}

/** Applies the migrations this gw has and the database lacks; returns what it applied. */
export async function migrate(database: Database, migrations?: Migration[]): Promise<Migration[]> {
  const known = migrations ?? await readMigrations();
  const client = await database.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS gw_schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const current = await appliedVersion(database);
    refuseNewer(current, known);
    const pending = known.filter((migration) => migration.version > current);
    for (const migration of pending) {
      await inTransaction(database, async (transaction) => {
        await transaction.query(migration.sql);
        await transaction.query('INSERT INTO gw_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      });
    }
    return pending;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

function refuseNewer(current: number, known: Migration[]): void {
  const newest = known.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new StateRefusedError(`the database's schema is version ${current}, newer than this gw knows (${newest}): run a gw at least as new as the one that migrated it`);
  }
}

/** At start: the schema must be exactly the one this gw was built for. */
export async function checkSchema(database: Database, migrations?: Migration[]): Promise<void> {
  const known = migrations ?? await readMigrations();
  const current = await appliedVersion(database);
  refuseNewer(current, known);
  const newest = known.at(-1)?.version ?? 0;
  if (current < newest) {
    const what = current === 0 ? 'has no gw schema yet' : `has schema version ${current}, this gw needs ${newest}`;
    throw new StateRefusedError(`the database ${what}: run gw db migrate --store URL first`);
  }
}
