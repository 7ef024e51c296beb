// Runs the real `gw` binary (bin/gw.js → dist/) as a child process, the way a user
// does: `gw serve` on a free port with its own home, and one-shot CLI commands.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// GW_TEST_BIN points the tests at another build of bin/gw.js (e.g. a snapshot taken while dist/ is being rebuilt).
export const GW_BIN = process.env.GW_TEST_BIN ? path.resolve(process.env.GW_TEST_BIN) : path.resolve(import.meta.dirname, '../../bin/gw.js');

export interface GatewayProcess {
  url: string;
  home: string;
  /** The key printed at the first start with an empty home, else null. */
  bootstrapKey: string | null;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Sends the signal and resolves with the exit code (or the signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
  /** Resolves with the exit code (or the signal name) once the process has exited, sending nothing. */
  exited(): Promise<number | string>;
}

// Every gw process this worker started that has not exited yet. The e2e tier's setup file
// (test/support/e2e-tier-setup.ts) stops what a file left running (a test that timed out while its
// gateway was starting, a CLI call it stopped waiting for) before the worker's next file starts.
const running = new Set<ChildProcess>();

function track<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** The gw processes still running, each with its command (`serve`, `audit`, …): never its other arguments, which may hold a key. */
export function runningGwProcesses(): Array<{ child: ChildProcess; command: string }> {
  return [...running].map((child) => ({ child, command: child.spawnargs[2] ?? 'gw' }));
}

export async function makeHome(prefix = 'gw-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** A clean environment: none of the developer's provider keys or base URLs leak into a test. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'SYSTEMROOT', 'NODE_OPTIONS'];
  const env: NodeJS.ProcessEnv = {};
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}

/** `bin`: another build's bin/gw.js (the upgrade test runs an older gw), else GW_BIN. */
export async function startGatewayProcess(options: { home?: string; env?: NodeJS.ProcessEnv; args?: string[]; timeoutMs?: number; bin?: string } = {}): Promise<GatewayProcess> {
  const home = options.home ?? await makeHome();
  const child = track(spawn(process.execPath, [options.bin ?? GW_BIN, 'serve', '--port', '0', '--home', home, ...(options.args ?? [])], {
    env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  // 'close' rather than 'exit': by then stdout and stderr have been read to the end.
  const exited = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const url = await new Promise<string>((resolve, reject) => {
    // A gateway that never said it listens is killed: the worker runs the next file in the same process.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gw serve did not start in time.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    const check = () => {
      const match = /listening on (https?:\/\/\S+)/.exec(stdout);
      if (match?.[1]) { clearTimeout(timer); resolve(match[1]); }
    };
    child.stdout.on('data', check);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`gw serve exited (${code}) before listening.\nstdout: ${stdout}\nstderr: ${stderr}`)); });
  });
  return {
    url, home, child,
    bootstrapKey: /^\s+(sk-gw-[0-9A-Za-z]+)\s*$/m.exec(stdout)?.[1] ?? null,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    exited: () => exited,
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one `gw …` command to completion. */
export function runGw(args: string[], options: { home?: string; env?: NodeJS.ProcessEnv; bin?: string } = {}): Promise<CliResult> {
  const homeArgs = options.home ? ['--home', options.home] : [];
  const child = track(spawn(process.execPath, [options.bin ?? GW_BIN, ...args, ...homeArgs], { env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

/**
 * Commands a test's setup runs in this process (runGwSetup): they only read or change the home's
 * state (or a hub's, over its admin API) and print, so the process adds nothing but its ~0.5 s
 * start. `serve`, `run`, `token`, `login` and the audit commands always run as a real process:
 * they start gateways, take over stdio or signals, or hold the trail's lock.
 */
const IN_PROCESS_COMMANDS = new Set(['teams', 'keys', 'people', 'device', 'tokens', 'settings', 'providers', 'routes', 'policy', 'dlp', 'prices', 'budgets', 'mcp', 'admin', 'claude-settings', 'guardrails']);

interface BuiltCli {
  runCli(argv: string[], context: { stdout: { write(text: string): void }; stderr: { write(text: string): void }; env: NodeJS.ProcessEnv; home(flag?: string): string }): Promise<number>;
  resolveHome(flag: string | undefined, env: NodeJS.ProcessEnv): string;
}

const builtClis = new Map<string, Promise<BuiltCli>>();

/** The CLI of the build `bin` runs (its dist/), loaded once per build: the same code the process would run. */
function loadBuiltCli(bin: string): Promise<BuiltCli> {
  const dist = path.join(path.dirname(bin), '..', 'dist');
  let loaded = builtClis.get(dist);
  if (!loaded) {
    loaded = (async () => {
      const main: Pick<BuiltCli, 'runCli'> = await import(pathToFileURL(path.join(dist, 'cli/main.js')).href);
      const home: Pick<BuiltCli, 'resolveHome'> = await import(pathToFileURL(path.join(dist, 'config/home.js')).href);
      return { runCli: main.runCli, resolveHome: home.resolveHome };
    })();
    builtClis.set(dist, loaded);
  }
  return loaded;
}

// One command at a time: runCli reads process.exitCode, which the runner clears and restores around each.
let inProcessQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs one `gw …` command inside this process, through the built CLI's runCli (bin/gw.js's own
 * entry: the same parsing, output and exit codes), with the environment and home runGw would give
 * the child; stdout, stderr and the code come back as runGw's. For setup steps, not for what tests
 * the process itself. test/e2e/cli/in-process-runner.test.ts holds it to the real process's answers.
 */
export function runGwInProcess(args: string[], options: { home?: string; env?: NodeJS.ProcessEnv; bin?: string } = {}): Promise<CliResult> {
  const homeArgs = options.home ? ['--home', options.home] : [];
  const run = async (): Promise<CliResult> => {
    const cli = await loadBuiltCli(options.bin ?? GW_BIN);
    const env = cleanEnv(options.env);
    const result: CliResult = { code: 0, stdout: '', stderr: '' };
    const context = {
      stdout: { write: (text: string) => { result.stdout += text; } },
      stderr: { write: (text: string) => { result.stderr += text; } },
      env, home: (flag?: string) => cli.resolveHome(flag, env),
    };
    const exitCode = process.exitCode;
    process.exitCode = undefined;
    try {
      result.code = await cli.runCli(['node', 'gw', ...args, ...homeArgs], context);
    } catch (error) {
      // What bin/gw.js prints for an error runCli does not expect.
      result.stderr += `gw: ${error instanceof Error ? error.message : String(error)}\n`;
      result.code = 2;
    } finally {
      process.exitCode = exitCode;
    }
    return result;
  };
  const next = inProcessQueue.then(run, run);
  inProcessQueue = next.catch(() => undefined);
  return next;
}

/**
 * runGw for a test's setup: in this process for the state commands (IN_PROCESS_COMMANDS), else a
 * real `gw` process. E2e files whose subject is not the CLI process import it as runGw.
 */
export function runGwSetup(args: string[], options: { home?: string; env?: NodeJS.ProcessEnv; bin?: string } = {}): Promise<CliResult> {
  // Another build (`bin`: the upgrade test's older gw) runs as its own process, as a user would run it.
  const inProcess = options.bin === undefined && IN_PROCESS_COMMANDS.has(args[0] ?? '') && !args.includes('--help') && !args.includes('-h');
  return inProcess ? runGwInProcess(args, options) : runGw(args, options);
}
