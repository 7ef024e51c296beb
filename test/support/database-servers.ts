// Real PostgreSQL and Redis servers for the e2e tests: scripts/database-servers.mjs (shared
// with bench/stores.mjs), with its types.
//
// One PostgreSQL and one Redis per vitest worker, not per file: initdb and a first start cost
// seconds of CPU, and about twenty files need a server. The first file a worker runs starts it and
// records it under the run's folder (the vitest process's pid); the next files of that worker
// attach to it. A worker runs its files one after another, so a file may stop and start the server
// (an outage test) or freeze and thaw Redis without disturbing another; each file works in
// databases of its own (createDatabase) and finds Redis empty (attaching flushes it).
// destroy() leaves a shared server running; the e2e global setup
// (test/support/database-servers-global-setup.ts) stops them after the run. A test about Redis
// under a long freeze starts its own (startOwnRedis).
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as servers from '../../scripts/database-servers.mjs';

export interface PostgresServer {
  /** A superuser URL for the server's `postgres` database. */
  url: string;
  port: number;
  /** A fresh database on this server, and its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder (a worker's shared server: nothing; the run's end does it). */
  destroy(): Promise<void>;
}

export interface RedisServer {
  url: string;
  port: number;
  /** The server's process (for SIGSTOP and SIGCONT), undefined while stopped. */
  pid(): number | undefined;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export const freePort: () => Promise<number> = servers.freePort;
/** A redis-server of the file's own, which it alone may freeze for long. */
export const startOwnRedis: () => Promise<RedisServer> = servers.startRedis;

/** A worker's shared server, as scripts/database-servers.mjs makes it: its folder, and whether it answers. */
interface SharedPostgres extends PostgresServer { dir: string; isRunning(): Promise<boolean> }
interface SharedRedis extends RedisServer { dir: string; isRunning(): Promise<boolean>; flush(): Promise<string> }

const RUNS_DIR = path.join(os.tmpdir(), 'gw-test-servers');

interface ServerRecord { dir: string; port: number }

function isRecord(value: unknown): value is ServerRecord {
  return typeof value === 'object' && value !== null && 'dir' in value && typeof value.dir === 'string' && 'port' in value && typeof value.port === 'number';
}

async function readRecord(file: string): Promise<ServerRecord | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return isRecord(value) ? value : null;
}

/** The worker's PostgreSQL (started by its first file that asks), or a server of its own outside a vitest worker. */
export async function startPostgres(): Promise<PostgresServer> {
  const shared = await attachShared<SharedPostgres>('postgres', servers.startPostgres, servers.postgresAt);
  if (!shared) return servers.startPostgres();
  // A file that failed in the middle of an outage test may have left it stopped.
  if (!await shared.isRunning()) await shared.start();
  return { ...shared, destroy: async () => undefined };
}

/** The worker's Redis (started by its first file that asks), emptied for this file; or a server of its own outside a vitest worker. */
export async function startRedis(): Promise<RedisServer> {
  const shared = await attachShared<SharedRedis>('redis', servers.startSharedRedis, servers.redisAt);
  if (!shared) return servers.startRedis();
  // A file that failed in the middle of an outage test may have left it stopped, or frozen.
  const pid = shared.pid();
  if (pid !== undefined) process.kill(pid, 'SIGCONT');
  if (!await shared.isRunning()) {
    await shared.stop();
    await shared.start();
  }
  await shared.flush();
  return { ...shared, destroy: async () => undefined };
}

/** The run's folder of shared servers: a fork's parent is the vitest process, the run's key. */
const runDirOf = (runPid: number) => path.join(RUNS_DIR, String(runPid));

/** The worker's server of this kind, started and recorded by the first file that asks; null outside a vitest worker. */
async function attachShared<T extends ServerRecord>(kind: 'postgres' | 'redis', start: () => Promise<T>, at: (record: ServerRecord) => T): Promise<T | null> {
  const pool = process.env.VITEST_POOL_ID;
  if (!pool) return null;
  const runDir = runDirOf(process.ppid);
  const file = path.join(runDir, `${kind}-${pool}.json`);
  const saved = await readRecord(file);
  if (saved) return at(saved);
  const server = await start();
  await mkdir(runDir, { recursive: true });
  await writeFile(file, JSON.stringify({ dir: server.dir, port: server.port }));
  return server;
}

/** Stops and removes the shared servers of the run `runPid` (the e2e global setup's teardown, or a later run cleaning up after a killed one). */
export async function destroyWorkerServers(runPid: number): Promise<void> {
  const runDir = runDirOf(runPid);
  const files = await readdir(runDir).catch(() => []);
  for (const name of files) {
    const saved = await readRecord(path.join(runDir, name)).catch(() => null);
    if (saved) await (name.startsWith('redis-') ? servers.redisAt(saved) : servers.postgresAt(saved)).destroy();
  }
  await rm(runDir, { recursive: true, force: true });
}

/** The runs whose vitest process is gone (killed before its teardown). */
export async function orphanedRuns(): Promise<number[]> {
  const names = await readdir(RUNS_DIR).catch(() => []);
  return names.map(Number).filter((pid) => Number.isInteger(pid) && pid > 0 && !isAlive(pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
