// The one way into state.json. Readers get a cached, frozen snapshot (cheap
// enough for every request); writers go through update(), which takes a
// cross-process lock, re-reads the file, applies the change and renames a new
// file into place, so the CLI and a running server never lose each other's
// writes. watch() polls the file so a server sees CLI changes within ~1 s.
import path from 'node:path';
import { Low } from 'lowdb';
import lockfile from 'proper-lockfile';
import { emptyState, type StateData } from './schema.js';
import { StateAccessError, StateError, errorCode, toAccessError } from './state-errors.js';
import { STATE_FILE_NAME, StateFileAdapter, fileSignature, type FileSignature, loadOrCreateSecretFile, prepareHome, writeFileAtomically } from './state-file.js';
import type { StateUpdater } from './state-updater.js';

export interface StateStoreOptions {
  /** Clock for the timestamps written into records. */
  now?: () => Date;
  /** How often watch() stats the file; 250 ms keeps a revoke under a second. */
  pollIntervalMs?: number;
  /** How long update() waits for another process's lock before giving up. */
  lockTimeoutMs?: number;
}

export interface StateStore extends StateUpdater {
  readonly home: string;
  readonly file: string;
  now(): Date;
  /** The last good state, deeply frozen; replaced (never mutated) on change. */
  snapshot(): StateData;
  onChange(listener: (state: StateData) => void): () => void;
  /** Reload failures (a broken file written by hand); the last good snapshot stays in use. */
  onError(listener: (error: StateError) => void): () => void;
  /** Starts noticing changes made by other processes. */
  watch(): void;
  /** Looks for a change now, without waiting for the next poll (a credential the door does not know yet). */
  refresh(): Promise<void>;
  /** Which store this is and whether its last sync worked, for /health. */
  health(): StoreHealth;
  /** A secret every process on this state shares (created once, first writer wins): the hub secret. */
  loadOrCreateSecret(name: string, bytes: number): Promise<Buffer>;
  /** Replaces a shared secret (gw state import moving a hub between stores). */
  importSecret(name: string, value: Buffer): Promise<void>;
  close(): Promise<void>;
}

export interface StoreHealth {
  kind: 'file' | 'postgres';
  ok: boolean;
  /** postgres: the state version this instance serves, and how long ago it last confirmed it is the newest. */
  version?: number;
  synced_ms_ago?: number;
  /** file: the modification time (ns) of the state.json this instance serves; a caller that compares it with the file's knows its change was picked up. */
  mtime_ns?: string;
  /**
   * file: which state.json this instance serves (inode, size, modification and change times): a caller
   * that reads the same from the file knows its change was picked up, even when two writes share a
   * timestamp (each write renames a new file into place, with a new inode).
   */
  file_id?: string;
  problem?: string;
}

/** Opens (and creates, 0700) the home folder and reads state.json; a broken file throws StateFileError. */
export async function openStateStore(home: string, options: StateStoreOptions = {}): Promise<StateStore> {
  await prepareHome(home);
  const file = path.join(home, STATE_FILE_NAME);
  const database = new Low<StateData>(new StateFileAdapter(file), emptyState());
  const signature = await fileSignature(file);
  await database.read();
  return new FileStateStore(home, file, database, signature, options);
}

// proper-lockfile refreshes the lock every stale/2; a holder silent for this long is presumed dead.
const LOCK_STALE_MS = 5_000;

class FileStateStore implements StateStore {
  readonly now: () => Date;
  #current: StateData;
  #signature: FileSignature;
  // What /health reports: the file of the snapshot in use (a broken file's signature is recorded, not served).
  #servedMtimeNs: string;
  #servedFileId = '';
  #queue: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #lastReported: string | null = null;
  readonly #changeListeners = new Set<(state: StateData) => void>();
  readonly #errorListeners = new Set<(error: StateError) => void>();

  constructor(
    readonly home: string,
    readonly file: string,
    private readonly database: Low<StateData>,
    signature: FileSignature,
    private readonly options: StateStoreOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.#current = deepFreeze(database.data);
    this.#signature = signature;
    this.#servedMtimeNs = signature.mtimeNs;
    this.#servedFileId = signature.key;
  }

  snapshot(): StateData {
    return this.#current;
  }

  update<T>(mutate: (draft: StateData) => T): Promise<T> {
    return this.#serialize(async () => {
      const release = await acquireLock(this.file, this.options.lockTimeoutMs ?? 8_000, (error) => this.#report(error));
      try {
        await this.database.read();
        const result = mutate(this.database.data);
        await this.database.write();
        this.#signature = await fileSignature(this.file);
        this.#servedMtimeNs = this.#signature.mtimeNs;
        this.#servedFileId = this.#signature.key;
        this.#publish(this.database.data);
        return result;
      } finally {
        await release().catch(() => undefined);
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
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#poll(), this.options.pollIntervalMs ?? 250);
    // Watching must not keep a CLI process (or a finished test) alive.
    this.#timer.unref();
  }

  refresh(): Promise<void> {
    return this.#serialize(() => this.#reloadIfChanged()).catch((error: unknown) => this.#report(error));
  }

  health(): StoreHealth {
    return { kind: 'file', ok: this.#lastReported === null, mtime_ns: this.#servedMtimeNs, file_id: this.#servedFileId, ...(this.#lastReported ? { problem: this.#lastReported } : {}) };
  }

  loadOrCreateSecret(name: string, bytes: number): Promise<Buffer> {
    return loadOrCreateSecretFile(path.join(this.home, name), bytes);
  }

  importSecret(name: string, value: Buffer): Promise<void> {
    return writeFileAtomically(path.join(this.home, name), value);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#queue.catch(() => undefined);
    this.#changeListeners.clear();
    this.#errorListeners.clear();
  }

  async #poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      await this.#serialize(() => this.#reloadIfChanged());
    } catch (error) {
      this.#report(error);
    } finally {
      this.#polling = false;
    }
  }

  /** Runs in the same queue as update(), so a slow reload cannot publish over a newer write. */
  async #reloadIfChanged(): Promise<void> {
    const signature = await fileSignature(this.file);
    if (signature.key === this.#signature.key) return;
    // Recorded first: a broken file is reported once per change, not every poll.
    this.#signature = signature;
    await this.database.read();
    this.#servedMtimeNs = signature.mtimeNs;
    this.#servedFileId = signature.key;
    this.#lastReported = null;
    this.#publish(this.database.data);
  }

  #serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #publish(state: StateData): void {
    this.#current = deepFreeze(state);
    tellListeners(this.#changeListeners, this.#current);
  }

  #report(error: unknown): void {
    const stateError = error instanceof StateError ? error : toAccessError('read', this.file, error);
    if (stateError.message === this.#lastReported) return;
    this.#lastReported = stateError.message;
    for (const listener of this.#errorListeners) listener(stateError);
  }
}

async function acquireLock(file: string, timeoutMs: number, onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      // realpath: false locks the path itself, so the file need not exist yet.
      return await lockfile.lock(file, { realpath: false, stale: LOCK_STALE_MS, retries: 0, onCompromised });
    } catch (error) {
      if (errorCode(error) !== 'ELOCKED') throw toAccessError('write', path.dirname(file), error);
      if (Date.now() >= deadline) {
        throw new StateAccessError(
          `cannot lock ${file}: another gw process held it for ${Math.round(timeoutMs / 1000)} s (if none is running, remove ${file}.lock)`,
        );
      }
      // Jittered backoff, capped low: updates take milliseconds, waiters should not oversleep.
      const delay = Math.min(100, 5 * 2 ** attempt) * (0.5 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Each listener hears of the new state; one that throws must not make the write (already stored) look failed. */
export function tellListeners(listeners: Iterable<(state: StateData) => void>, state: StateData): void {
  for (const listener of listeners) {
    try {
      listener(state);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
