// Runs the real `gw` binary (bin/gw.js → dist/) as a child process, the way a user
// does: `gw serve` on a free port with its own home, and one-shot CLI commands.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

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
  const child = spawn(process.execPath, [options.bin ?? GW_BIN, 'serve', '--port', '0', '--home', home, ...(options.args ?? [])], {
    env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  // 'close' rather than 'exit': by then stdout and stderr have been read to the end.
  const exited = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gw serve did not start in time.\nstdout: ${stdout}\nstderr: ${stderr}`)), options.timeoutMs ?? 20_000);
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
  const child = spawn(process.execPath, [options.bin ?? GW_BIN, ...args, ...homeArgs], { env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}
