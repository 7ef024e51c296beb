// The connection pool every PostgreSQL part of gw shares, and the one way to
// describe a database failure to a person without leaking the URL's password.
import pg from 'pg';
import { maskUrlCredentials } from '../mask-url-credentials.js';
import { StateAccessError } from '../state/state-errors.js';

export type Database = pg.Pool;

export interface DatabaseOptions {
  /** Connections this process may hold; each instance of a hub holds its own. */
  maxConnections?: number;
  /** Called for errors on idle connections (the server restarted): logged, never thrown. */
  onIdleError?: (error: Error) => void;
}

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    // A server that went away must fail the call quickly, so the caller can answer (or retry) in time.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'gw',
  });
  // Without a listener an idle connection's error (server restart) would crash the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}

/** One line for a person: what failed, where (password masked) and PostgreSQL's reason. */
export function describeDatabaseError(url: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string } | null)?.code;
  const hint = code === 'ECONNREFUSED' ? ' (is PostgreSQL running and listening there?)' : code === '3D000' ? ' (create the database first)' : '';
  return `${maskUrlCredentials(url)}: ${maskUrlCredentials(reason)}${hint}`;
}

export function databaseAccessError(url: string, error: unknown): StateAccessError {
  return new StateAccessError(`cannot use the PostgreSQL store ${describeDatabaseError(url, error)}`, { cause: error });
}

/** Runs `work` in one transaction on one connection; rolls back on any throw. */
export async function inTransaction<T>(database: Database, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await database.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
