// StateStore on PostgreSQL: the same snapshot/update/watch contract as state.json,
// so nothing above the store knows which one it runs on. The state is one versioned
// row (see migrations/postgres/0001_initial.sql for why); update() locks it, applies
// the change and bumps the version in one transaction, and NOTIFY tells every other
// instance at commit. A poll of the version every second covers notifications lost
// while a listening connection was being re-made, so a change reaches every instance
// within about a second, two at worst.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { parseStateText } from '../state/parse-state.js';
import { emptyState, type StateData } from '../state/schema.js';
import { StateError } from '../state/state-errors.js';
import { deepFreeze, tellListeners, type StateStore, type StateStoreOptions, type StoreHealth } from '../state/state-store.js';
import { maskUrlCredentials } from '../mask-url-credentials.js';
import { checkSchema } from './migrations.js';
import { databaseAccessError, inTransaction, openDatabase, type Database } from './database.js';

const CHANNEL = 'gw_state';
const POLL_MS = 1_000;
const RELISTEN_MS = 1_000;

export async function openPostgresStateStore(url: string, home: string, options: StateStoreOptions = {}): Promise<StateStore> {
  const database = openDatabase(url);
  try {
    await checkSchema(database);
    const row = await readRow(database);
    return new PostgresStateStore(url, home, database, row, options);
  } catch (error) {
    await database.end().catch(() => undefined);
    throw error instanceof StateError ? error : databaseAccessError(url, error);
  }
}

interface StateRow {
  version: number;
  data: StateData;
}

const SOURCE = 'the PostgreSQL store';

async function readRow(database: Database | pg.PoolClient, lock = false): Promise<StateRow> {
  const result = await database.query<{ version: string; data: string }>(`SELECT version, data::text AS data FROM gw_state WHERE id = 1${lock ? ' FOR UPDATE' : ''}`);
  const row = result.rows[0];
  if (!row) return { version: 0, data: emptyState() };
  return { version: Number(row.version), data: parseStateText(row.data, SOURCE) };
}

class PostgresStateStore implements StateStore {
  readonly now: () => Date;
  readonly file: string;
  #current: StateData;
  #version: number;
  #queue: Promise<unknown> = Promise.resolve();
  #pollTimer: NodeJS.Timeout | undefined;
  #listener: pg.Client | undefined;
  #relistenTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #lastSyncAt = Date.now();
  #lastProblem: string | null = null;
  readonly #changeListeners = new Set<(state: StateData) => void>();
  readonly #errorListeners = new Set<(error: StateError) => void>();

  constructor(private readonly url: string, readonly home: string, private readonly database: Database, row: StateRow, options: StateStoreOptions) {
    this.now = options.now ?? (() => new Date());
    this.file = maskUrlCredentials(url);
    this.#current = deepFreeze(row.data);
    this.#version = row.version;
    database.on('error', (error) => this.#report(error));
  }

  snapshot(): StateData {
    return this.#current;
  }

  update<T>(mutate: (draft: StateData) => T): Promise<T> {
    return this.#serialize(async () => {
      try {
        const { result, row } = await inTransaction(this.database, async (client) => {
          await client.query(`INSERT INTO gw_state (id, version, data) VALUES (1, 0, $1::jsonb) ON CONFLICT (id) DO NOTHING`, [JSON.stringify(emptyState())]);
          const locked = await readRow(client, true);
          const result = mutate(locked.data);
          const version = locked.version + 1;
          await client.query('UPDATE gw_state SET version = $1, data = $2::jsonb, updated_at = now() WHERE id = 1', [version, JSON.stringify(locked.data)]);
          await client.query('SELECT pg_notify($1, $2)', [CHANNEL, String(version)]);
          return { result, row: { version, data: locked.data } };
        });
        this.#publish(row);
        return result;
      } catch (error) {
        throw error instanceof StateError ? error : databaseAccessError(this.url, error);
      }
    });
  }

  onChange(listener: (state: StateData) => void): () => void {
    this.#changeListeners.add(listener);
    return () => void this.#changeListeners.delete(listener);
  }

  onError(listener: (error: StateError) => void): () => void {
    this.#errorListeners.add(listener);
    return () => void this.#errorListeners.delete(listener);
  }

  watch(): void {
    if (this.#pollTimer || this.#closed) return;
    this.#pollTimer = setInterval(() => void this.#serialize(() => this.#reloadIfNewer()).catch(() => undefined), POLL_MS);
    this.#pollTimer.unref();
    void this.#listen();
  }

  refresh(): Promise<void> {
    return this.#serialize(() => this.#reloadIfNewer());
  }

  health(): StoreHealth {
    const behindMs = Date.now() - this.#lastSyncAt;
    return { kind: 'postgres', ok: this.#lastProblem === null, version: this.#version, synced_ms_ago: behindMs, ...(this.#lastProblem ? { problem: this.#lastProblem } : {}) };
  }

  async loadOrCreateSecret(name: string, bytes: number): Promise<Buffer> {
    try {
      await this.database.query('INSERT INTO gw_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, randomBytes(bytes)]);
      const result = await this.database.query<{ value: Buffer }>('SELECT value FROM gw_secrets WHERE name = $1', [name]);
      const value = result.rows[0]?.value;
      if (!value || value.length !== bytes) throw new Error(`secret ${name} holds ${value?.length ?? 0} bytes, expected ${bytes}`);
      return value;
    } catch (error) {
      throw databaseAccessError(this.url, error);
    }
  }

  async importSecret(name: string, value: Buffer): Promise<void> {
    try {
      await this.database.query('INSERT INTO gw_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value', [name, value]);
    } catch (error) {
      throw databaseAccessError(this.url, error);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#pollTimer);
    clearTimeout(this.#relistenTimer);
    await this.#queue.catch(() => undefined);
    await this.#listener?.end().catch(() => undefined);
    await this.database.end().catch(() => undefined);
    this.#changeListeners.clear();
    this.#errorListeners.clear();
  }

  /** A dedicated connection for LISTEN; when it drops, polling carries on and it is re-made. */
  async #listen(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.url, application_name: 'gw-listen', connectionTimeoutMillis: 5_000 });
    const again = () => {
      if (this.#listener === client) this.#listener = undefined;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (!this.#closed) this.#relistenTimer = setTimeout(() => void this.#listen(), RELISTEN_MS);
    };
    client.on('error', again);
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && Number(message.payload) > this.#version) void this.#serialize(() => this.#reloadIfNewer()).catch(() => undefined);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.#listener = client;
      if (this.#closed) await client.end();
    } catch {
      again();
    }
  }

  async #reloadIfNewer(): Promise<void> {
    try {
      const result = await this.database.query<{ version: string }>('SELECT version FROM gw_state WHERE id = 1');
      const version = Number(result.rows[0]?.version ?? 0);
      if (version > this.#version) this.#publish(await readRow(this.database));
      this.#lastSyncAt = Date.now();
      this.#lastProblem = null;
    } catch (error) {
      this.#report(error);
    }
  }

  #serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #publish(row: StateRow): void {
    if (row.version < this.#version) return;
    this.#version = row.version;
    this.#lastSyncAt = Date.now();
    this.#current = deepFreeze(row.data);
    tellListeners(this.#changeListeners, this.#current);
  }

  #report(error: unknown): void {
    const stateError = error instanceof StateError ? error : databaseAccessError(this.url, error);
    if (stateError.message === this.#lastProblem) return;
    this.#lastProblem = stateError.message;
    for (const listener of this.#errorListeners) listener(stateError);
  }
}
