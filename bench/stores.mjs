// `npm run bench` (second part): gw on its embedded store against gw on PostgreSQL + Redis,
// same mock upstream, same load, one run; and two instances on PostgreSQL + Redis against
// one. Each gw has a 1,000,000-requests-per-minute policy, so every call goes through the
// rate limiter (in process, or a Redis script) and writes its audit record (a file, or a
// group commit). The target: CPU per request on PostgreSQL + Redis within 1.3× the embedded one.
//
// Env: BENCH_DURATION (4), BENCH_WARMUP (1), BENCH_RUNS (2, interleaved), BENCH_STORE_CONNECTIONS (16),
// BENCH_STORES (0 skips this part).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientHeaders, scenarios } from './lib/fixtures.mjs';
import { median } from './lib/report.mjs';
import { readProcessCpuMicros } from './lib/proc-stats.mjs';
import { findFreePort, runToCompletion, startNode, stopAll, waitForOutput, waitForPort } from './lib/processes.mjs';
import { startPostgres, startRedis } from '../scripts/database-servers.mjs';

if (process.env.BENCH_STORES === '0') process.exit(0);
const benchFolder = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(benchFolder, '..');
const entry = path.join(projectRoot, 'bin', 'gw.js');
const durationSeconds = Number(process.env.BENCH_DURATION ?? 4);
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 1);
const runs = Number(process.env.BENCH_RUNS ?? 2);
const connections = Number(process.env.BENCH_STORE_CONNECTIONS ?? 16);
const scenario = scenarios.chat;
const log = (text) => process.stderr.write(`${text}\n`);

function gw(args, env = {}) {
  return execFileSync(process.execPath, [entry, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** CPU of every process of a database server (PostgreSQL forks a backend per connection). */
function serverCpuMicros(match) {
  let total = 0;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (match(command)) total += readProcessCpuMicros(Number(entry)) ?? 0;
    } catch { /* gone */ }
  }
  return total;
}

const mock = startNode('mock', path.join(benchFolder, 'lib', 'mock-upstream.mjs'), [], { env: { ...process.env, PORT: '0' } });
const [, mockPort] = await waitForOutput(mock, /"port":(\d+)/, 10_000);
const providerEnv = { OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: `http://127.0.0.1:${mockPort}/v1`, GW_LOG_LEVEL: 'warn' };
const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
const store = await postgres.createDatabase('gw_bench');
const storeArgs = ['--store', store];
gw(['db', 'migrate', ...storeArgs]);
gw(['teams', 'create', 'bench', ...storeArgs]);
gw(['policy', 'set', 'team:bench', '--rpm', '1000000', ...storeArgs]);
const sharedKey = /sk-gw-\w+/.exec(gw(['keys', 'create', '--team', 'bench', ...storeArgs]))[0];
const embeddedHome = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-embedded-'));
gw(['teams', 'create', 'bench', '--home', embeddedHome]);
gw(['policy', 'set', 'team:bench', '--rpm', '1000000', '--home', embeddedHome]);
const embeddedKey = /sk-gw-\w+/.exec(gw(['keys', 'create', '--team', 'bench', '--home', embeddedHome]))[0];

async function startGw(args, key, home = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-instance-'))) {
  const port = await findFreePort();
  const handle = startNode('gw', entry, ['serve', '--port', String(port), '--standalone', '--home', home, ...args], { env: { ...process.env, ...providerEnv }, cwd: projectRoot });
  await waitForPort(handle, port, 20_000);
  return { handle, origin: `http://127.0.0.1:${port}`, key };
}

const targets = {
  embedded: [await startGw([], embeddedKey, embeddedHome)],
  'postgres+redis': [await startGw([...storeArgs, '--redis', redis.url], sharedKey)],
  'two instances': [await startGw([...storeArgs, '--redis', redis.url], sharedKey), await startGw([...storeArgs, '--redis', redis.url], sharedKey)],
};

async function measure(instances) {
  const isDatabase = (command) => command.startsWith('postgres') || command.includes('redis-server');
  const before = serverCpuMicros(isDatabase);
  const results = await Promise.all(instances.map((instance) => {
    const load = {
      origin: instance.origin, path: scenario.path, headers: clientHeaders(scenario.dialect, instance.key), body: JSON.stringify(scenario.body),
      connections: Math.max(1, Math.round(connections / instances.length)), warmupSeconds, durationSeconds, targetPid: instance.handle.pid, benchPids: [mock.pid],
    };
    return runToCompletion('load-generator', path.join(benchFolder, 'lib', 'load-generator.mjs'), [JSON.stringify(load)], { timeoutMs: (warmupSeconds + durationSeconds + 30) * 1000 })
      .then((output) => JSON.parse(output.trim().split('\n').pop()));
  }));
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  return {
    requestsPerSecond: results.reduce((sum, result) => sum + result.requestsPerSecond, 0),
    gwCpuMicrosPerRequest: results.reduce((sum, result) => sum + result.targetCpuMicrosPerRequest * result.requests, 0) / requests,
    // Includes the warm-up: an upper bound of what the servers spent per measured request.
    databaseCpuMicrosPerRequest: (serverCpuMicros(isDatabase) - before) / requests,
    failed,
  };
}

const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
for (let run = 1; run <= runs; run += 1) {
  for (const [name, instances] of Object.entries(targets)) {
    const result = await measure(instances);
    samples[name].push(result);
    log(`stores run ${run} ${name}: ${Math.round(result.requestsPerSecond)} req/s, gw ${Math.round(result.gwCpuMicrosPerRequest)} µs CPU/req${result.failed ? `, ${result.failed} failed` : ''}`);
  }
}

const row = (name) => {
  const list = samples[name];
  return { rps: median(list.map((item) => item.requestsPerSecond)), cpu: median(list.map((item) => item.gwCpuMicrosPerRequest)), db: median(list.map((item) => item.databaseCpuMicrosPerRequest)) };
};
const embedded = row('embedded');
const shared = row('postgres+redis');
const two = row('two instances');
const lines = [
  '',
  `stores: small chat, ${connections} connections, medians of ${runs} interleaved runs (every call rate-limited and audited), gw on Node ${process.version}`,
  '| target | req/s | gw CPU µs/req | PostgreSQL+Redis CPU µs/req | CPU vs embedded |',
  '|---|---:|---:|---:|---:|',
  `| embedded (state.json, audit.jsonl, in-process limits) | ${Math.round(embedded.rps)} | ${Math.round(embedded.cpu)} | – | 1.00× |`,
  `| PostgreSQL + Redis, one instance | ${Math.round(shared.rps)} | ${Math.round(shared.cpu)} | ${Math.round(shared.db)} | ${(shared.cpu / embedded.cpu).toFixed(2)}× (target ≤ 1.30×) |`,
  `| PostgreSQL + Redis, two instances | ${Math.round(two.rps)} (${(two.rps / shared.rps).toFixed(2)}× one) | ${Math.round(two.cpu)} | ${Math.round(two.db)} | ${(two.cpu / embedded.cpu).toFixed(2)}× |`,
  '',
];
process.stdout.write(lines.join('\n'));
// gw first (its last audit records go to PostgreSQL), then the servers; SIGKILL is the backstop.
const gws = Object.values(targets).flat().map((instance) => instance.handle.child);
stopAll();
await Promise.race([Promise.all(gws.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve))))), new Promise((resolve) => setTimeout(resolve, 15_000))]);
stopAll('SIGKILL');
await Promise.all([postgres.destroy(), redis.destroy()]);
setTimeout(() => process.exit(0), 5_000).unref();
