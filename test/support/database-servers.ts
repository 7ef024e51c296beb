// Real PostgreSQL and Redis servers for the e2e tests: scripts/database-servers.mjs (shared
// with bench/stores.mjs), with its types.
//
// One PostgreSQL per vitest worker, not per file: initdb and a first start cost seconds of CPU,
// and about twenty files need a server. The first file a worker runs starts it and records it
// under the run's folder (the vitest process's pid); the next files of that worker attach to it.
// A worker runs its files one after another, so a file may stop and start the server (an outage
// test) without disturbing another; each file works in databases of its own (createDatabase).
// destroy() leaves a shared server running; the e2e global setup
// (test/support/database-servers-global-setup.ts) stops them after the run. Redis stays one per
// file: redis-server starts in milliseconds, and most of its files stop or freeze it.
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
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export const freePort: () => Promise<number> = servers.freePort;
export const startRedis: () => Promise<RedisServer> = servers.startRedis;

const RUNS_DIR = path.join(os.tmpdir(), 'gw-test-servers');

interface PostgresRecord { dir: string; port: number }

function isRecord(value: unknown): value is PostgresRecord {
  return typeof value === 'object' && value !== null && 'dir' in value && typeof value.dir === 'string' && 'port' in value && typeof value.port === 'number';
}

async function readRecord(file: string): Promise<PostgresRecord | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return isRecord(value) ? value : null;
}

/** The worker's PostgreSQL (started by its first file that asks), or a server of its own outside a vitest worker. */
export async function startPostgres(): Promise<PostgresServer> {
  const pool = process.env.VITEST_POOL_ID;
  if (!pool) return servers.startPostgres();
  // A fork's parent is the vitest process: the run's key.
  const runDir = path.join(RUNS_DIR, String(process.ppid));
  const file = path.join(runDir, `postgres-${pool}.json`);
  const saved = await readRecord(file);
  if (saved) {
    const server = servers.postgresAt(saved);
    // A file that failed in the middle of an outage test may have left it stopped.
    if (!await server.isRunning()) await server.start();
    return { ...server, destroy: async () => undefined };
  }
  const server = await servers.startPostgres();
  await mkdir(runDir, { recursive: true });
  await writeFile(file, JSON.stringify({ dir: server.dir, port: server.port }));
  return { ...server, destroy: async () => undefined };
}

/** Stops and removes the shared servers of the run `runPid` (the e2e global setup's teardown, or a later run cleaning up after a killed one). */
export async function destroyWorkerServers(runPid: number): Promise<void> {
  const runDir = path.join(RUNS_DIR, String(runPid));
  const files = await readdir(runDir).catch(() => []);
  for (const name of files) {
    const saved = await readRecord(path.join(runDir, name)).catch(() => null);
    if (saved) await servers.postgresAt(saved).destroy();
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
