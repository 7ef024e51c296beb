// Where the docs test runs a file's shell blocks, as a reader would in a terminal: a home of its
// own (HOME in a temporary folder), `gw` on the PATH (this checkout's bin/gw.js, as `npm link`
// would put it there), no provider keys and no GW_* variables from the developer's environment,
// and no OS keychain (gw login keeps its token in the home's login.json, as on CI).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../docs/markdown-files.js';

export interface BlockRun { code: number | string; output: string }

export interface BackgroundBlock {
  label: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | string>;
}

function findOnPath(name: string): string {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(folder, name);
    try { accessSync(candidate, constants.X_OK); return candidate; } catch { /* next folder */ }
  }
  throw new Error(`${name} is not on the PATH`);
}

export class DocSandbox {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'gw-doc-'));
  readonly env: NodeJS.ProcessEnv;
  private readonly work = path.join(this.root, 'work');
  private readonly background: BackgroundBlock[] = [];
  /** Every block's output, to find gateways `gw run` / `gw token` started detached when none answered. */
  private readonly outputs: Array<() => string> = [];

  constructor() {
    const bin = path.join(this.root, 'bin');
    for (const folder of [bin, this.work, path.join(this.root, 'home')]) mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(bin, 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO_ROOT, 'bin', 'gw.js')}" "$@"\n`, { mode: 0o755 });
    // The test runs on this checkout, already installed and built: npm install and npm link have
    // nothing left to do (gw is on the PATH through bin/); any other npm command is npm's.
    writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\ncase "$1" in install|link) exit 0;; esac\nexec "${findOnPath('npm')}" "$@"\n`, { mode: 0o755 });
    this.env = {
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: path.join(this.root, 'home'),
      LANG: process.env.LANG ?? 'C.UTF-8',
      TMPDIR: os.tmpdir(),
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/gw-doc-test-bus',
    };
  }

  private spawnBlock(code: string, detached: boolean): { child: ChildProcess; output: () => string; exited: Promise<number | string> } {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', code], { cwd: this.work, env: this.env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    const exited = new Promise<number | string>((resolve) => child.once('close', (exit, signal) => resolve(exit ?? signal ?? 'unknown')));
    this.outputs.push(() => output);
    return { child, output: () => output, exited };
  }

  /** Runs a block to its end (killed after timeoutMs). */
  async run(code: string, timeoutMs: number): Promise<BlockRun> {
    const block = this.spawnBlock(code, true);
    const timer = setTimeout(() => this.signalGroup(block.child, 'SIGKILL'), timeoutMs);
    const exit = await block.exited;
    clearTimeout(timer);
    return { code: exit, output: block.output() };
  }

  /** Starts a block in the background and resolves once its output matches `ready`. */
  async start(label: string, code: string, ready: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    const block = { label, ...this.spawnBlock(code, true) };
    this.background.push(block);
    let ended: number | string | null = null;
    void block.exited.then((exit) => { ended = exit; });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = ready.exec(block.output());
      if (match) return match;
      if (ended !== null) throw new Error(`${label} ended (${String(ended)}) before its output matched ${ready}:\n${block.output()}`);
      if (Date.now() > deadline) throw new Error(`${label}: no ${ready} in ${timeoutMs} ms:\n${block.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until the output of a background block matches. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.background.some((block) => pattern.test(block.output()))) {
      if (Date.now() > deadline) throw new Error(`no background block printed ${pattern} in ${timeoutMs} ms:\n${this.background.map((block) => `${block.label}:\n${block.output()}`).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Ctrl-C to every background block still running (as a reader stops them), then waits for them. */
  async stopBackground(): Promise<void> {
    const running = this.background.splice(0);
    for (const block of running) this.signalGroup(block.child, 'SIGINT');
    await Promise.all(running.map(async (block) => {
      const timer = setTimeout(() => this.signalGroup(block.child, 'SIGKILL'), 15_000);
      await block.exited;
      clearTimeout(timer);
    }));
  }

  /** The block's bash and what it started (a gw serve): each block is the leader of its own process group. */
  private signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try { process.kill(-child.pid, signal); } catch { /* already gone */ }
  }

  /** Stops the background blocks and any gateway a block's `gw token` or `gw run` started detached (its pid is printed). */
  async dispose(): Promise<void> {
    await this.stopBackground();
    for (const output of this.outputs) {
      for (const match of output().matchAll(/started gw serve in the background \(pid (\d+)/g)) {
        try { process.kill(Number(match[1]), 'SIGTERM'); } catch { /* already gone */ }
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}
