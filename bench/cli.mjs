// `npm run bench:cli`: how long the commands people type (and run inside `$(…)`) take, against
// starting Node itself (`node -e 0`). Each command runs BENCH_CLI_RUNS times (15 by default),
// round-robin so a busy moment of the machine slows every command alike; the table gives the
// medians of wall time and of the child's own CPU time (user + system, read at its exit), and
// each command's ratio to `node -e 0`. The target (issue 37): every ratio within 2×.
// `gw token` needs a gateway to answer: one is started on a free port in a temporary home first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/report.mjs';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_CLI_BIN: another checkout's bin/gw.js (an older build, to compare).
const bin = process.env.BENCH_CLI_BIN ? path.resolve(process.env.BENCH_CLI_BIN) : path.join(projectRoot, 'bin/gw.js');
const runs = Number(process.env.BENCH_CLI_RUNS ?? 15);
// Writes the child's own CPU time to fd 3 as it exits; every command, node -e 0 included, carries it.
const cpuAtExit = `data:text/javascript,import{writeSync}from'node:fs';process.on('exit',()=>{const u=process.cpuUsage();writeSync(3,String((u.user+u.system)/1e3))})`;

async function startGateway(home) {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--home', home], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const match = /listening on (https?:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`gw serve exited (${code}) before listening: ${output}`)));
  });
  return { url, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }) };
}

function measure(args, env) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', cpuAtExit, ...args], { env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { wallMs, cpuMs: Number(result.output[3]) };
}

const home = await mkdtemp(path.join(os.tmpdir(), 'gw-bench-cli-'));
const gateway = await startGateway(home);
const env = { ...process.env, GW_HOME: home, GW_URL: gateway.url };
const commands = [
  ['node -e 0', ['-e', '0']],
  ['gw --version', [bin, '--version']],
  ['gw --help', [bin, '--help']],
  ['gw token', [bin, 'token']],
  ['gw keys list', [bin, 'keys', 'list']],
];
const samples = new Map(commands.map(([name]) => [name, []]));
try {
  measure([bin, 'token'], env); // the first token creates the session key; later ones reuse it
  for (let run = 0; run < runs; run += 1) {
    for (const [name, args] of commands) samples.get(name).push(measure(args, env));
  }
} finally {
  await gateway.stop();
  await rm(home, { recursive: true, force: true });
}

const base = samples.get('node -e 0');
const baseWall = median(base.map((sample) => sample.wallMs));
const baseCpu = median(base.map((sample) => sample.cpuMs));
const compileCache = typeof (await import('node:module')).default.enableCompileCache === 'function';
process.stdout.write(`${bin}\nNode ${process.version} (${process.execPath}), ${os.cpus().length} CPUs, ${runs} runs each, compile cache ${compileCache ? 'on' : 'not in this Node'}\n`);
process.stdout.write(`${'command'.padEnd(14)} ${'wall ms'.padStart(8)} ${'× node'.padStart(7)} ${'CPU ms'.padStart(8)} ${'× node'.padStart(7)}\n`);
for (const [name] of commands) {
  const wall = median(samples.get(name).map((sample) => sample.wallMs));
  const cpu = median(samples.get(name).map((sample) => sample.cpuMs));
  process.stdout.write(`${name.padEnd(14)} ${wall.toFixed(0).padStart(8)} ${(wall / baseWall).toFixed(2).padStart(7)} ${cpu.toFixed(0).padStart(8)} ${(cpu / baseCpu).toFixed(2).padStart(7)}\n`);
}
