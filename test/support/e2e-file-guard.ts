// What an e2e file must leave as it found it. The e2e project runs its files one after another in
// each worker without isolation (vitest.config.ts: one module graph per worker), so a process a
// file left running, a server still listening, an environment variable it set or a folder it
// changed into would reach the next file. The project's setup file (e2e-tier-setup.ts) checks
// each file against the worker's state when the file started, and fails the file that leaked.

/** Resources that outlive a file for real: child processes and listening servers. Timers and sockets close themselves. */
const WATCHED = new Set(['ProcessWrap', 'TCPServerWrap', 'PipeServerWrap']);

export interface WorkerSnapshot {
  env: Record<string, string | undefined>;
  cwd: string;
  resources: Map<string, number>;
}

function countResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of process.getActiveResourcesInfo()) {
    if (WATCHED.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

export function takeSnapshot(): WorkerSnapshot {
  return { env: { ...process.env }, cwd: process.cwd(), resources: countResources() };
}

// vitest itself sets its own variables per file.
const isOwnedByVitest = (name: string): boolean => name.startsWith('VITEST') || name === 'NODE_ENV' || name === 'TEST';

function changedEnv(before: WorkerSnapshot['env']): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(process.env)]);
  return [...names].filter((name) => !isOwnedByVitest(name) && before[name] !== process.env[name]).sort();
}

function extraResources(before: WorkerSnapshot['resources']): string[] {
  const extra: string[] = [];
  for (const [name, count] of countResources()) {
    const more = count - (before.get(name) ?? 0);
    if (more > 0) extra.push(`${more} ${name}`);
  }
  return extra;
}

/**
 * What the file left behind compared with `before` (empty: nothing), restoring the environment and
 * the folder so the next file starts clean either way. Names only, never values: an environment
 * variable may hold a key.
 */
export function findLeftovers(before: WorkerSnapshot): string[] {
  const leftovers: string[] = [];
  const env = changedEnv(before.env);
  if (env.length > 0) {
    leftovers.push(`environment variables changed: ${env.join(', ')}`);
    for (const name of env) {
      const value = before.env[name];
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  }
  if (process.cwd() !== before.cwd) {
    leftovers.push(`working folder changed to ${process.cwd()}`);
    process.chdir(before.cwd);
  }
  const resources = extraResources(before.resources);
  if (resources.length > 0) leftovers.push(`still open (child processes, listening servers): ${resources.join(', ')}`);
  return leftovers;
}

/** Polls findLeftovers' resource part for a moment: a child sent SIGTERM in the file's last hook may take a breath to exit. */
export async function waitForLeftovers(before: WorkerSnapshot, timeoutMs = 3_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  while (extraResources(before.resources).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return findLeftovers(before);
}
