// Where the `gw serve` that holds a home listens, written in the home once it listens, so that
// `gw token`, `gw run` and the others find it on any port without GW_URL, and never start a
// second one that would die on the audit lock. A record whose process is gone is stale.
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

const ADDRESS_FILE = 'serve.json';

interface ServeAddress {
  pid: number;
  url: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

async function readJson(file: string): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value)) : null;
  } catch {
    // Missing, or cut short by a crash: no address.
    return null;
  }
}

/** Written by gw serve once it listens; the returned function removes it at stop (if it is still this process's). */
export async function recordServeAddress(home: string, url: string): Promise<() => Promise<void>> {
  const file = path.join(home, ADDRESS_FILE);
  const record: ServeAddress = { pid: process.pid, url };
  await writeFile(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  return async () => {
    const current = await readJson(file);
    if (current?.pid === process.pid) await unlink(file).catch(() => undefined);
  };
}

/** The URL of the live gw serve that recorded itself in this home, or null. */
export async function findServeAddress(home: string): Promise<string | null> {
  const record = await readJson(path.join(home, ADDRESS_FILE));
  if (typeof record?.pid !== 'number' || typeof record.url !== 'string') return null;
  return isAlive(record.pid) ? record.url : null;
}

/** The pid of a live gateway holding this home's audit lock (audit/audit.lock, src/audit/audit-lock.ts), or null. */
export async function findAuditLockHolder(home: string): Promise<number | null> {
  const owner = await readJson(path.join(home, 'audit', 'audit.lock'));
  // Another host's pid (a shared folder) means nothing here; a CLI command holds it only for a moment.
  if (typeof owner?.pid !== 'number' || owner.role === 'cli' || owner.host !== hostname()) return null;
  return isAlive(owner.pid) ? owner.pid : null;
}
