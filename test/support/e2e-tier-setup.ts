// The e2e project's setup file (vitest.config.ts): runs before each e2e file, in the worker the
// file shares with the files before and after it (no isolation). After the file:
// - the gw processes it left running are stopped (a test that timed out while its gateway was
//   starting, or a CLI call it stopped waiting for), with a line on stderr saying so;
// - a file that leaves another process running, a server listening, the environment or the
//   working folder changed fails here, naming what it left (test/support/e2e-file-guard.ts),
//   and the next file starts clean either way.
import { afterAll, beforeAll } from 'vitest';
import { takeSnapshot, waitForLeftovers, type WorkerSnapshot } from './e2e-file-guard.js';
import { runningGwProcesses } from './gateway-process.js';

let before: WorkerSnapshot | undefined;

beforeAll(() => { before = takeSnapshot(); });

/** Gives CLI calls a moment to end by themselves, then kills the gw processes still running. */
async function stopLeftGw(graceMs = 3_000): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  while (runningGwProcesses().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  const left = runningGwProcesses();
  await Promise.all(left.map(({ child }) => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
    child.once('exit', resolve);
    child.kill('SIGKILL');
  })));
  return left.map(({ command }) => `gw ${command}`);
}

afterAll(async () => {
  const stopped = await stopLeftGw();
  if (stopped.length > 0) process.stderr.write(`e2e: stopped ${stopped.length} gw process(es) the file left running: ${stopped.join(', ')}\n`);
  if (!before) return;
  const leftovers = await waitForLeftovers(before);
  if (leftovers.length > 0) throw new Error(`this e2e file left state behind for the next file in its worker: ${leftovers.join('; ')} (docs/testing.md)`);
});
