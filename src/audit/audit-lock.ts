// One writer per audit folder. A pid file rather than proper-lockfile's mtime
// lock: after a crash (kill -9, OOM) the restarted gateway must take the lock
// at once, not wait out a staleness window; a dead pid on this host is stale.
import { hostname } from 'node:os';
import { open, readFile, unlink } from 'node:fs/promises';

export class AuditLockedError extends Error {
  constructor(readonly lockFile: string, detail: string) {
    super(`the audit trail is in use by another gateway (${detail}); lock file ${lockFile}`);
    this.name = 'AuditLockedError';
  }
}

export interface AuditLock {
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  host: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(lockFile: string): Promise<LockOwner | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(lockFile, 'utf8'));
    const { pid, host } = (value ?? {}) as Record<string, unknown>;
    return typeof pid === 'number' && typeof host === 'string' ? { pid, host } : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
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
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Takes the lock or throws AuditLockedError. A lock left by a dead process on
 * this host is removed and taken over; one from another host is never
 * guessed stale (its pid means nothing here).
 */
export async function lockAuditDirectory(lockFile: string): Promise<AuditLock> {
  const me: LockOwner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await createExclusive(lockFile, me)) return { release: () => unlink(lockFile).catch(() => undefined) };
    const owner = await readOwner(lockFile);
    if (owner && owner.host !== me.host) throw new AuditLockedError(lockFile, `held by pid ${owner.pid} on host ${owner.host}`);
    if (owner && isAlive(owner.pid)) throw new AuditLockedError(lockFile, `held by pid ${owner.pid}`);
    await unlink(lockFile).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  throw new AuditLockedError(lockFile, 'another process keeps taking it');
}
