// `npm run bench`: gw against a bare node:http + undici pass-through and against the mock itself,
// same mock upstream, same load, one run on this machine. Not a test: it prints a table and writes
// bench/results/<stamp>.json. Every piece is its own process (mock, bare proxy, gw, load generator)
// so each one's CPU can be read from /proc apart from the others.
//
// Env: BENCH_DURATION (measured seconds per cell, 4), BENCH_WARMUP (1), BENCH_RUNS (2, interleaved),
// BENCH_CONNECTIONS (1,32), BENCH_SCENARIOS (chat,chat-stream,messages-stream-translated,messages-large-stream;
// also messages,messages-stream, messages-translated (non-streaming), and messages-1mb-stream: a 1 MB coding-agent request),
// BENCH_TARGETS (direct,bare-proxy,fastify-floor,gw; fastify-floor: fastify + undici parsing JSON, no gw logic), BENCH_PIN (1: taskset the target to its own CPU), GW_BENCH_KEY,
// GW_BENCH_ENTRY (gw's bin script, bin/gw.js: another checkout's, or a stand-in), BENCH_GW_SETTINGS (name=value,…),
// BENCH_DLP (0 skips the DLP case), BENCH_SPEND (0 skips the spend case), BENCH_OUTPUT_DLP (1: gw scans every answer,
// `gw dlp output on --scope *`, so the stream cells price the output hold; docs/benchmarks.md), BENCH_GUARDRAIL (1: an
// allow-all HTTP guardrail, bench/lib/allow-guardrail.mjs, on every call before it leaves: the cost of the round trip),
// BENCH_BASELINE (another checkout's folder or its bin/gw.js: runs it as target gw-baseline, interleaved with gw in
// every run, and prints gw against it: "no change may make a ratio worse" judged within one run, not across two),
// BENCH_NODES (the Nodes that run the proxies, `20,26` or paths, bench/lib/nodes.mjs: every figure names its Node, and
// with two or more each run measures every Node back to back and prints their ratios to the bare proxy side by side).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { clientHeaders, scenarios } from './lib/fixtures.mjs';
import { formatDlpRows, runDlpBench } from './dlp.mjs';
import { formatSpendRows, runSpendBench } from './spend.mjs';
import { compareGwWithBare, compareWithBaseline, formatReport, median, summarizeByNode } from './lib/report.mjs';
import { orderNodesForRun, resolveNodes } from './lib/nodes.mjs';
import { findFreePort, installCleanup, planCpus, runToCompletion, startNode, stopAll, waitForOutput, waitForPort } from './lib/processes.mjs';

const benchFolder = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(benchFolder, '..');
const list = (value, fallback) => (value ?? fallback).split(',').map((item) => item.trim()).filter(Boolean);
/** BENCH_BASELINE's bin script, resolved: a checkout's folder means its bin/gw.js. */
const baselineEntry = process.env.BENCH_BASELINE
  ? (process.env.BENCH_BASELINE.endsWith('.js') || process.env.BENCH_BASELINE.endsWith('.mjs') ? path.resolve(process.env.BENCH_BASELINE) : path.resolve(process.env.BENCH_BASELINE, 'bin', 'gw.js'))
  : undefined;
/** gw-baseline right after gw, so each run measures the two back to back under the same machine weather. */
function withBaseline(targets) {
  if (!baselineEntry || targets.includes('gw-baseline')) return targets;
  const at = targets.indexOf('gw');
  return at === -1 ? [...targets, 'gw-baseline'] : [...targets.slice(0, at + 1), 'gw-baseline', ...targets.slice(at + 1)];
}
const settings = {
  durationSeconds: Number(process.env.BENCH_DURATION ?? 4),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 1),
  runs: Number(process.env.BENCH_RUNS ?? 2),
  outputDlp: process.env.BENCH_OUTPUT_DLP === '1',
  guardrail: process.env.BENCH_GUARDRAIL === '1',
  connections: list(process.env.BENCH_CONNECTIONS, '1,32').map(Number),
  scenarios: list(process.env.BENCH_SCENARIOS, 'chat,chat-stream,messages-stream-translated,messages-large-stream'),
  targets: withBaseline(list(process.env.BENCH_TARGETS, 'direct,bare-proxy,fastify-floor,gw')),
  cpuCount: os.availableParallelism(),
  pinning: planCpus(process.env.BENCH_PIN !== '0'),
  nodes: resolveNodes(process.env.BENCH_NODES, projectRoot),
  benchNode: process.version,
};
for (const name of settings.scenarios) if (!scenarios[name]) throw new Error(`unknown scenario ${name}: one of ${Object.keys(scenarios).join(', ')}`);

const cellSeconds = settings.durationSeconds + settings.warmupSeconds;
const proxyTargets = settings.targets.filter((name) => name !== 'direct').length;
const cells = settings.runs * settings.scenarios.length * settings.connections.length * (settings.targets.length - proxyTargets + proxyTargets * settings.nodes.length);
const log = (text) => process.stderr.write(`${text}\n`);
log(`bench: ${cells} cells × ${cellSeconds} s ≈ ${Math.ceil((cells * (cellSeconds + 0.3)) / 60 * 10) / 10} min; proxies on ${settings.nodes.map((node) => `Node ${node.version}`).join(' and ')}, mock and load on Node ${process.version}`);
const gwHomes = [];
const stopWatchdog = installCleanup((cells * (cellSeconds + 15) + 60) * 1000, (reason) => log(`bench: ${reason}`));
const bodyFolder = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-bodies-'));
process.on('exit', () => { for (const folder of [...gwHomes, bodyFolder]) rmSync(folder, { recursive: true, force: true }); });

async function startListening(name, script, env, cpus, node) {
  const handle = startNode(name, script, [], { env: { ...process.env, ...env, PORT: '0' }, cpus, node });
  const [, port] = await waitForOutput(handle, /"port":(\d+)/, 10_000);
  return { handle, origin: `http://127.0.0.1:${port}` };
}

/** gw as a user runs it; the virtual key comes from its first-start output unless GW_BENCH_KEY is set. */
async function startGw(mockOrigin, entry, name, node) {
  const port = await findFreePort();
  const gwHome = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-home-'));
  gwHomes.push(gwHome);
  const env = {
    ...process.env, OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: `${mockOrigin}/v1`, ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: mockOrigin,
  };
  // BENCH_GW_SETTINGS="audit_fsync=interval,…": gw settings applied before it starts, to price each one.
  for (const pair of (process.env.BENCH_GW_SETTINGS ?? '').split(',').filter(Boolean)) {
    const [name, value] = pair.split('=');
    execFileSync(node, [entry, 'settings', 'set', name, value, '--home', gwHome], { stdio: 'ignore' });
  }
  // BENCH_OUTPUT_DLP=1: output DLP on for every scope (streams read part by part and held, docs/output-dlp.md).
  if (settings.outputDlp) execFileSync(node, [entry, 'dlp', 'output', 'on', '--scope', '*', '--home', gwHome], { stdio: 'ignore' });
  // BENCH_GUARDRAIL=1: an allow-all HTTP guardrail before every call (docs/guardrails.md).
  if (guardrail) execFileSync(node, [entry, 'guardrails', 'add', 'bench-allow', '--kind', 'http', '--url', guardrail.origin, '--when', 'pre', '--home', gwHome], { stdio: 'ignore' });
  const handle = startNode(name, entry, ['serve', '--port', String(port), '--home', gwHome], { env, cpus: settings.pinning?.target, cwd: projectRoot, node });
  await waitForPort(handle, port, 20_000);
  let key = process.env.GW_BENCH_KEY;
  if (!key) key = (await waitForOutput(handle, /sk-gw-[A-Za-z0-9]+/, 2_000).catch(() => undefined))?.[0];
  const keySource = process.env.GW_BENCH_KEY ? 'GW_BENCH_KEY' : 'its first-start output';
  log(key ? `bench: ${name} on :${port}, key ${key.slice(0, 10)}… from ${keySource}` : 'bench: gw printed no sk-gw-… key and GW_BENCH_KEY is not set; sending requests without a valid key');
  return { handle, origin: `http://127.0.0.1:${port}`, key: key ?? 'sk-gw-missing' };
}

/** One request before the load: a target that does not answer 2xx with a complete body is skipped. */
async function probe(target, scenario) {
  try {
    const response = await request(`${target.origin}${scenario.path}`, { method: 'POST', headers: clientHeaders(scenario.dialect, target.key), body: JSON.stringify(scenario.body), headersTimeout: 10_000, bodyTimeout: 10_000 });
    const text = await response.body.text();
    if (response.statusCode >= 300) {
      const code = /"(?:code|type)"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      return `${response.statusCode} ${(STATUS_CODES[response.statusCode] ?? '').toLowerCase()}${code ? ` (${code})` : ''}`;
    }
    if (!scenario.looksComplete(text)) return `${response.statusCode} but the body is not a complete ${scenario.stream ? 'stream' : 'response'}: ${text.slice(0, 120)}`;
    return undefined;
  } catch (error) {
    return `no answer: ${error.code ?? ''} ${error.message}`.trim();
  }
}

const mock = await startListening('mock', path.join(benchFolder, 'lib', 'mock-upstream.mjs'), {}, settings.pinning?.load);
const guardrail = settings.guardrail ? await startListening('guardrail', path.join(benchFolder, 'lib', 'allow-guardrail.mjs'), {}, settings.pinning?.load) : null;
/** The proxies each Node runs, by target name; `direct` (the mock itself) is the same for every Node. */
const targetsByNode = new Map();
/** Starts the targets on one Node; one that does not start is recorded as the reason its cells are skipped. */
async function startTargets(node) {
  const targets = new Map([['direct', { ...mock, key: 'unused' }]]);
  const failures = new Map();
  const suffix = settings.nodes.length > 1 ? ` (Node ${node.version})` : '';
  for (const name of ['fastify-floor', 'bare-proxy']) {
    if (!settings.targets.includes(name)) continue;
    const started = await startListening(`${name}${suffix}`, path.join(benchFolder, 'targets', `${name}.mjs`), { UPSTREAM: mock.origin }, settings.pinning?.target, node.path);
    targets.set(name, { ...started, key: 'unused' });
  }
  const entries = [['gw', path.resolve(projectRoot, process.env.GW_BENCH_ENTRY ?? path.join('bin', 'gw.js'))], ['gw-baseline', baselineEntry]];
  for (const [name, entry] of entries) {
    if (!entry || !settings.targets.includes(name)) continue;
    try {
      targets.set(name, await startGw(mock.origin, entry, `${name}${suffix}`, node.path));
    } catch (error) {
      failures.set(name, `did not start: ${error.message}`);
      log(`bench: ${name}${suffix} (${entry}) did not start: ${error.message}`);
    }
  }
  return { targets, failures };
}
for (const node of settings.nodes) targetsByNode.set(node.version, await startTargets(node));

const probes = new Map();
for (const node of settings.nodes) {
  const { targets, failures } = targetsByNode.get(node.version);
  for (const name of settings.targets) {
    for (const scenarioName of settings.scenarios) {
      const target = targets.get(name);
      const failure = target ? await probe(target, scenarios[scenarioName]) : failures.get(name) ?? 'not started';
      if (failure) log(`bench: ${name} on Node ${node.version} ${scenarioName}: ${failure}`);
      probes.set(`${node.version}/${name}/${scenarioName}`, failure);
    }
  }
}

/** Bodies above ~100 KB go by file: one argv string may not exceed 128 KiB on Linux. */
const bodyFiles = new Map();
function bodyArgument(name, scenario) {
  const text = JSON.stringify(scenario.body);
  if (text.length < 100_000) return { body: text };
  if (!bodyFiles.has(name)) {
    const file = path.join(bodyFolder, `${name}.json`);
    writeFileSync(file, text);
    bodyFiles.set(name, file);
  }
  return { bodyFile: bodyFiles.get(name) };
}

/** gw and gw-baseline swap places every other run, so neither always runs on the warmer (or busier) side of the other. */
function orderForRun(names, run) {
  const at = names.indexOf('gw');
  if (run % 2 === 1 || at === -1 || names[at + 1] !== 'gw-baseline') return names;
  return [...names.slice(0, at), 'gw-baseline', 'gw', ...names.slice(at + 2)];
}

const measurements = [];
const benchPids = [mock.handle.pid];
/** One cell: a target on one Node under one scenario and load, measured by its own load-generator process. */
async function measureCell(cell, target, scenario) {
  const load = {
    origin: target.origin, path: scenario.path, headers: clientHeaders(scenario.dialect, target.key), ...bodyArgument(cell.scenario, scenario),
    connections: cell.connections, warmupSeconds: settings.warmupSeconds, durationSeconds: settings.durationSeconds,
    targetPid: cell.target === 'direct' ? undefined : target.handle.pid, benchPids,
  };
  const label = `run ${cell.run} ${cell.scenario} c${cell.connections} ${cell.target}${settings.nodes.length > 1 && cell.target !== 'direct' ? ` on Node ${cell.node}` : ''}`;
  try {
    const output = await runToCompletion('load-generator', path.join(benchFolder, 'lib', 'load-generator.mjs'), [JSON.stringify(load)], { cpus: settings.pinning?.load, timeoutMs: (cellSeconds + 30) * 1000 });
    const result = JSON.parse(output.trim().split('\n').pop());
    measurements.push({ ...cell, result });
    log(`${label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyMs.p50?.toFixed(3)} ms${result.failed ? `, ${result.failed} failed: ${result.firstFailure}` : ''}`);
  } catch (error) {
    measurements.push({ ...cell, skipped: `load generator failed: ${error.message}` });
    log(`${label}: ${error.message}`);
  }
}
for (let run = 1; run <= settings.runs; run += 1) {
  for (const scenarioName of settings.scenarios) {
    for (const connections of settings.connections) {
      // The mock alone (`direct`) once per run: it runs on the bench's Node whichever Node runs the proxies.
      if (settings.targets.includes('direct')) {
        const cell = { run, scenario: scenarioName, connections, target: 'direct', node: process.version };
        const failure = probes.get(`${settings.nodes[0].version}/direct/${scenarioName}`);
        if (failure) measurements.push({ ...cell, skipped: failure });
        else await measureCell(cell, targetsByNode.get(settings.nodes[0].version).targets.get('direct'), scenarios[scenarioName]);
      }
      for (const node of orderNodesForRun(settings.nodes, run)) {
        for (const name of orderForRun(settings.targets, run)) {
          if (name === 'direct') continue;
          const cell = { run, scenario: scenarioName, connections, target: name, node: node.version };
          const failure = probes.get(`${node.version}/${name}/${scenarioName}`);
          if (failure) measurements.push({ ...cell, skipped: failure });
          else await measureCell(cell, targetsByNode.get(node.version).targets.get(name), scenarios[scenarioName]);
        }
      }
    }
  }
}

const rows = summarizeByNode(measurements, settings);
const ratios = compareGwWithBare(rows);
const measured = measurements.filter((item) => item.result?.machine);
const noise = {
  foreignBusyPercent: median(measured.map((item) => item.result.machine.foreignBusyPercent)),
  stealPercent: median(measured.map((item) => item.result.machine.stealPercent)),
};
const baseline = settings.nodes.flatMap((node) => compareWithBaseline(measurements.filter((item) => item.node === node.version), settings).map((row) => ({ ...row, node: node.version })));
const report = formatReport(rows, ratios, settings, noise, baseline);
process.stdout.write(`\n${report}`);
// DLP on a Claude Code–shaped 200 KB request, in this process (the scan is pure CPU): bench/dlp.mjs.
const dlp = process.env.BENCH_DLP === '0' ? [] : runDlpBench();
process.stdout.write(formatDlpRows(dlp));
// Spend (pricing a call, a hard budget's round) per call, in this process: bench/spend.mjs.
const spend = process.env.BENCH_SPEND === '0' ? [] : await runSpendBench();
process.stdout.write(formatSpendRows(spend));

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const resultsFolder = path.join(benchFolder, 'results');
mkdirSync(resultsFolder, { recursive: true });
const environment = { node: process.version, proxyNodes: settings.nodes.map((node) => node.version), platform: `${os.platform()} ${os.release()}`, cpuModel: os.cpus()[0]?.model, loadAverage: os.loadavg() };
const resultFile = path.join(resultsFolder, `${stamp}.json`);
writeFileSync(resultFile, `${JSON.stringify({ stamp, settings, environment, baselineEntry, probes: Object.fromEntries(probes), rows, ratios, baseline, noise, dlp, spend, measurements }, null, 2)}\n`);
log(`bench: wrote ${path.relative(process.cwd(), resultFile)}`);
stopWatchdog();
stopAll();
// A child that lingers after SIGTERM (a graceful shutdown waiting on keep-alive sockets) must not hold the run.
setTimeout(() => process.exit(0), 5_000).unref();
