// What every command gets injected: where to write, and how to find $GW_HOME.
// Tests build one with in-memory streams; run-cli.ts builds the real one.
import { resolveHome } from '../config/home.js';
import type { StateStore } from '../state/state-store.js';

export interface CliOutput {
  write(text: string): void;
}

export interface CliContext {
  stdout: CliOutput;
  stderr: CliOutput;
  env: NodeJS.ProcessEnv;
  /** Resolves $GW_HOME from the command's --home flag, GW_HOME, or the platform default. */
  home(flag?: string): string;
  /** The command being run (`keys create`), set before its action: what admin-change records name. */
  command?: string;
  /** A hub running an admin's remote command: its live state, instead of opening the home's (src/cli/remote-commands.ts). */
  store?: StateStore;
}

export function createProcessContext(): CliContext {
  return {
    stdout: { write: (text) => void process.stdout.write(text) },
    stderr: { write: (text) => void process.stderr.write(text) },
    env: process.env,
    home: (flag) => resolveHome(flag, process.env),
  };
}

/** Thrown by a command to end with a clear one-line message and an exit code, no stack trace. */
export class CliExit extends Error {
  constructor(readonly exitCode: number, message: string) {
    super(message);
    this.name = 'CliExit';
  }
}
