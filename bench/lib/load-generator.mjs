// Closed-loop load generator, run as its own process so its CPU never counts against a target:
// N keep-alive connections (undici Pool, pipelining 1), each sending the next request as soon as the
// previous response was read to its last byte. Warm-up, then a measured window bracketed by CPU
// snapshots of the target. Input: one JSON argument; output: one JSON line on stdout.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { readMachineCpuMicros, readProcessCpuMicros, readProcessMemory } from './proc-stats.mjs';

const settings = JSON.parse(process.argv[2]);
const { origin, path, headers, bodyFile, connections, warmupSeconds, durationSeconds, targetPid, benchPids = [] } = settings;
// A large body comes by file (an argv string is limited to 128 KiB); sent as one Buffer, never re-encoded per request.
const body = bodyFile ? readFileSync(bodyFile) : settings.body;
const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });

const latencies = [];
const overheadHeaderValues = [];
const statusCounts = {};
let completed = 0;
let failed = 0;
let firstFailure;
let measuring = false;
let stopping = false;
let minBytes = Infinity;
let maxBytes = 0;

async function runConnection() {
  while (!stopping) {
    const started = performance.now();
    try {
      const response = await pool.request({ path, method: 'POST', headers, body });
      let bytes = 0;
      let tail = '';
      for await (const chunk of response.body) {
        bytes += chunk.length;
        if (response.statusCode >= 300) tail += chunk.toString('utf8');
      }
      if (!measuring) continue;
      statusCounts[response.statusCode] = (statusCounts[response.statusCode] ?? 0) + 1;
      if (response.statusCode >= 300) {
        failed += 1;
        firstFailure ??= `${response.statusCode} ${tail.slice(0, 200)}`;
        continue;
      }
      completed += 1;
      latencies.push(performance.now() - started);
      minBytes = Math.min(minBytes, bytes);
      maxBytes = Math.max(maxBytes, bytes);
      const overhead = response.headers['x-gw-overhead-ms'];
      if (typeof overhead === 'string' && overhead !== '') overheadHeaderValues.push(Number(overhead));
    } catch (error) {
      if (measuring) {
        failed += 1;
        firstFailure ??= `${error.code ?? 'error'} ${error.message}`;
      }
      await new Promise((resolve) => setTimeout(resolve, 10)); // a refused connection must not spin the loop
    }
  }
}

function snapshot() {
  return {
    at: performance.now(),
    target: targetPid ? readProcessCpuMicros(targetPid) : undefined,
    bench: benchPids.reduce((sum, pid) => sum + (readProcessCpuMicros(pid) ?? 0), 0),
    self: process.cpuUsage(),
    machine: readMachineCpuMicros(),
  };
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

let start;
let end;
const loops = Array.from({ length: connections }, runConnection);
setTimeout(() => {
  start = snapshot();
  measuring = true;
  setTimeout(() => {
    measuring = false;
    end = snapshot();
    stopping = true;
  }, durationSeconds * 1000);
}, warmupSeconds * 1000);
await Promise.all(loops);
await pool.close();

const seconds = (end.at - start.at) / 1000;
const sorted = latencies.sort((a, b) => a - b);
const overheads = overheadHeaderValues.filter(Number.isFinite).sort((a, b) => a - b);
const targetCpu = start.target !== undefined && end.target !== undefined ? end.target - start.target : undefined;
const selfCpu = end.self.user + end.self.system - start.self.user - start.self.system;
const machine = start.machine && end.machine ? {
  busyPercent: (100 * (end.machine.busy - start.machine.busy)) / (end.machine.total - start.machine.total),
  stealPercent: (100 * (end.machine.steal - start.machine.steal)) / (end.machine.total - start.machine.total),
  // Work on this machine that is not the mock, the target or this load generator: a neighbour's noise.
  foreignBusyPercent: (100 * (end.machine.busy - start.machine.busy - (targetCpu ?? 0) - (end.bench - start.bench) - selfCpu)) / (end.machine.total - start.machine.total),
} : undefined;

process.stdout.write(`${JSON.stringify({
  seconds,
  requests: completed,
  failed,
  firstFailure,
  statusCounts,
  requestsPerSecond: completed / seconds,
  latencyMs: { p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] },
  responseBytes: completed > 0 ? { min: minBytes, max: maxBytes } : undefined,
  targetCpuMicrosPerRequest: targetCpu !== undefined && completed > 0 ? targetCpu / completed : undefined,
  loadGeneratorCpuMicrosPerRequest: completed > 0 ? selfCpu / completed : undefined,
  targetMemory: targetPid ? readProcessMemory(targetPid) : undefined,
  overheadHeaderMs: overheads.length > 0 ? { count: overheads.length, p50: percentile(overheads, 0.5) } : undefined,
  machine,
})}\n`);
