// One writer per audit folder. A pid file rather than proper-lockfile's mtime
// lock: after a crash (kill -9, OOM) the restarted gateway must take the lock
// at once, not wait out a staleness window; a dead pid on this host is stale.
// The lock names its holder's role: a CLI command recording admin changes holds it
// for a moment, so a gateway (or another command) waits for it instead of failing.
import { hostname } from 'node:os';
import { open, readFile, unlink } from 'node:fs/promises';
import { errorCode } from '../error-code.js';

export class AuditLockedError extends Error {
  constructor(readonly lockFile: string, detail: string) {
    super(`the audit trail is in use by another gateway (${detail}); lock file ${lockFile}`);
    this.name = 'AuditLockedError';
  }
}

export interface AuditLock {
  release(): Promise<void>;
}

/** `gateway`: gw serve, for its whole life. `cli`: a command appending its admin changes, for a moment. */
export type AuditWriterRole = 'gateway' | 'cli';

interface LockOwner {
  pid: number;
  host: string;
  role?: AuditWriterRole;
}

/** How long a writer waits for a CLI command's moment with the trail before giving up. */
const CLI_HOLD_WAIT_MS = 5_000;
const RETRY_MS = 50;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

async function readOwner(lockFile: string): Promise<LockOwner | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(lockFile, 'utf8'));
    const { pid, host, role } = (value ?? {}) as Record<string, unknown>;
    if (typeof pid !== 'number' || typeof host !== 'string') return undefined;
    return role === 'cli' ? { pid, host, role } : { pid, host };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    // A lock file cut short by a crash between create and write holds no owner: stale.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

async function createExclusive(lockFile: string, owner: LockOwner): Promise<boolean> {
  try {
    const handle = await open(lockFile, 'wx', 0o600);
    await handle.writeFile(JSON.stringify(owner));
    await handle.close();
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Takes the lock or throws AuditLockedError. A lock left by a dead process on
 * this host is removed and taken over; one from another host is never
 * guessed stale (its pid means nothing here). A live CLI holder is waited for
 * (up to 5 s): it only appends the admin changes it just made.
 */
export async function lockAuditDirectory(lockFile: string, role: AuditWriterRole = 'gateway'): Promise<AuditLock> {
  const me: LockOwner = { pid: process.pid, host: hostname(), role };
  const waitUntil = Date.now() + CLI_HOLD_WAIT_MS;
  let staleRemovals = 0;
  while (staleRemovals < 3) {
    if (await createExclusive(lockFile, me)) return { release: () => unlink(lockFile).catch(() => undefined) };
    const owner = await readOwner(lockFile);
    if (owner && owner.host !== me.host) throw new AuditLockedError(lockFile, `held by pid ${owner.pid} on host ${owner.host}`);
    if (owner && isAlive(owner.pid)) {
      if (owner.role !== 'cli' || Date.now() > waitUntil) throw new AuditLockedError(lockFile, `held by pid ${owner.pid}${owner.role === 'cli' ? ' (a gw command)' : ''}`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      continue;
    }
    staleRemovals += 1;
    await unlink(lockFile).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  throw new AuditLockedError(lockFile, 'another process keeps taking it');
}
