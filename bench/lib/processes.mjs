// Child processes of one bench run: started (optionally pinned to CPUs with taskset, which needs no
// root), watched for their readiness line, and all stopped on exit, Ctrl-C or a watchdog.
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';

const children = new Set();

/** Which CPUs the load side (mock, load generator) and the target get; undefined: no pinning. */
export function planCpus(wantPinning) {
  const count = os.availableParallelism();
  if (!wantPinning || count < 2 || spawnSync('taskset', ['-V']).status !== 0) return undefined;
  // The target under test gets the last CPU alone, so "req/s" reads as "per gateway core"; this
  // process (which reads the targets' logs) moves to the load side too.
  const plan = { load: count === 2 ? '0' : `0-${count - 2}`, target: String(count - 1) };
  spawnSync('taskset', ['-a', '-p', '-c', plan.load, String(process.pid)], { stdio: 'ignore' });
  return plan;
}

/** Starts `node script args` (on `node`, a binary: the bench's own by default) and keeps the last lines of its output for error messages. */
export function startNode(name, script, args, { env = process.env, cpus, cwd, node = process.execPath } = {}) {
  const command = cpus ? 'taskset' : node;
  const prefix = cpus ? ['-c', cpus, node] : [];
  const child = spawn(command, [...prefix, script, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const handle = { name, child, pid: child.pid, output: '', exited: undefined, lineListeners: new Set() };
  const collect = (data) => {
    handle.output = (handle.output + data.toString('utf8')).slice(-8000);
    for (const listener of handle.lineListeners) listener(handle.output);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  child.on('exit', (code, signal) => {
    handle.exited = { code, signal };
    children.delete(handle);
    for (const listener of handle.lineListeners) listener(handle.output);
  });
  children.add(handle);
  return handle;
}

/** Resolves with the first match of pattern in the process output; rejects if it exits or times out. */
export function waitForOutput(handle, pattern, timeoutMs) {
  return new Promise((resolve, reject) => {
    const check = (output) => {
      const match = pattern.exec(output);
      if (match) return finish(() => resolve(match));
      if (handle.exited) finish(() => reject(new Error(`${handle.name} exited (${handle.exited.signal ?? `code ${handle.exited.code}`}): ${lastLines(handle.output)}`)));
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`${handle.name}: nothing matching ${pattern} within ${timeoutMs} ms: ${lastLines(handle.output)}`))), timeoutMs);
    const finish = (settle) => { clearTimeout(timer); handle.lineListeners.delete(check); settle(); };
    handle.lineListeners.add(check);
    check(handle.output);
  });
}

/** Resolves once something accepts TCP connections on port; rejects if the process exits first. */
export async function waitForPort(handle, port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (handle.exited) throw new Error(`${handle.name} exited (${handle.exited.signal ?? `code ${handle.exited.code}`}): ${lastLines(handle.output)}`);
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${handle.name}: port ${port} not open within ${timeoutMs} ms: ${lastLines(handle.output)}`);
}

export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a process to completion and returns its stdout; killed after timeoutMs. */
export function runToCompletion(name, script, args, { cpus, timeoutMs }) {
  const handle = startNode(name, script, args, { cpus });
  let stdout = '';
  handle.child.stdout.on('data', (data) => { stdout += data.toString('utf8'); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => handle.child.kill('SIGKILL'), timeoutMs);
    handle.child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${name} failed (${signal ?? `code ${code}`}): ${lastLines(handle.output)}`));
    });
  });
}

export function stopAll(signal = 'SIGTERM') {
  for (const handle of children) handle.child.kill(signal);
}

/** Stops every child on normal exit, on Ctrl-C/SIGTERM, and after maxWallMs whatever happens. */
export function installCleanup(maxWallMs, onAbort) {
  process.on('exit', () => stopAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => { onAbort(`stopped by ${signal}`); stopAll(); process.exit(130); });
  }
  const watchdog = setTimeout(() => { onAbort(`watchdog: still running after ${Math.round(maxWallMs / 1000)} s`); stopAll(); process.exit(1); }, maxWallMs);
  return () => clearTimeout(watchdog);
}

/** The error lines if the output has any (a usage error comes before the help text), else the last ones. */
function lastLines(output) {
  const lines = output.trim().split('\n').map((line) => line.trim()).filter(Boolean);
  const errors = lines.filter((line) => /error/i.test(line));
  const chosen = (errors.length > 0 ? errors : lines).slice(-3).join(' | ');
  return chosen === '' ? '(no output)' : chosen;
}
