// Runs `gw <args>` through commander in-process with the teams, keys and
// settings commands registered, capturing stdout and stderr.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach } from 'vitest';
import type { CliContext } from '../../src/cli/cli-context.js';
import { registerKeysCommand } from '../../src/cli/commands/keys.js';
import { registerSettingsCommand } from '../../src/cli/commands/settings.js';
import { registerTeamsCommand } from '../../src/cli/commands/teams.js';

export interface CommandResult { stdout: string; stderr: string; error: unknown }

const homes: string[] = [];

afterEach(async () => {
  await Promise.all(homes.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

export async function makeCliHome(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'gw-cli-'));
  homes.push(folder);
  return path.join(folder, 'home');
}

/** `defaultHome` plays GW_HOME: used when the command has no --home. */
export async function runGw(args: string[], defaultHome: string): Promise<CommandResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const context: CliContext = {
    stdout: { write: (text) => void stdout.push(text) },
    stderr: { write: (text) => void stderr.push(text) },
    env: {},
    home: (flag) => path.resolve(flag ?? defaultHome),
  };
  const program = new Command('gw').exitOverride().configureOutput({
    writeOut: (text) => context.stdout.write(text),
    writeErr: (text) => context.stderr.write(text),
  });
  registerTeamsCommand(program, context);
  registerKeysCommand(program, context);
  registerSettingsCommand(program, context);
  let error: unknown = null;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (caught) {
    error = caught;
  }
  return { stdout: stdout.join(''), stderr: stderr.join(''), error };
}
