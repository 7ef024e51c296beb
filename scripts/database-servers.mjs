// Real PostgreSQL and Redis servers, each in its own temporary folder on a free loopback
// port, the way an operator would run them (no containers): for the e2e tests
// (test/support/database-servers.ts: one PostgreSQL per vitest worker) and the store
// benchmark (bench/stores.mjs).
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** @returns {Promise<number>} */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Debian installs the server binaries under /usr/lib/postgresql/<major>/bin, off the PATH. */
function postgresBin(name) {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root).filter((entry) => /^\d+$/.test(entry)).sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const candidate = path.join(root, major, 'bin', name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return name;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

async function runPostgres(binary, args) {
  const command = postgresBin(binary);
  if (asRoot) await run('runuser', ['-u', 'postgres', '--', command, ...args]);
  else await run(command, args);
}

let databaseCounter = 0;

export async function startPostgres() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const { stdout: user } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(user.trim()), Number(group.trim()));
  }
  await chmod(dir, 0o700);
  await runPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const server = postgresAt({ dir, port: await freePort() });
  await server.start();
  return server;
}

/** The server whose folder startPostgres made (running or not): the tests share one per worker across files. */
export function postgresAt({ dir, port }) {
  const data = path.join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const server = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    dataDir: data,
    // Random too: one server serves many files, and a worker process may run several with the counter reset.
    async createDatabase(name = `gw_test_${process.pid}_${++databaseCounter}_${randomBytes(4).toString('hex')}`) {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    start: () => runPostgres('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '30', 'start']),
    stop: () => runPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    /** pg_ctl status exits 0 only while the server runs. */
    isRunning: () => runPostgres('pg_ctl', ['-D', data, 'status']).then(() => true, () => false),
    async destroy() {
      await server.stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}

export async function startRedis() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-redis-'));
  const port = await freePort();
  let child = null;
  const server = {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child?.pid,
    async start() {
      const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      await new Promise((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
        started.stdout.setEncoding('utf8').on('data', (chunk) => {
          output += chunk;
          if (output.includes('Ready to accept connections')) { clearTimeout(timer); resolve(); }
        });
        started.once('exit', (code) => { clearTimeout(timer); reject(new Error(`redis-server exited ${code}: ${output}`)); });
      });
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      await new Promise((resolve) => { running.once('exit', () => resolve()); running.kill('SIGKILL'); });
    },
    async destroy() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
