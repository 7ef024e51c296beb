// Governance commands run remotely: `gw policy set team:eng --rpm 60 --hub https://gw.example.com`
// sends its arguments to the hub's admin API (POST /admin/api/commands), and the hub runs the
// very same command, in-process, against its live state. Remote does exactly what local does
// because it is the same code: the parsing, the checks, the change and the printed answer.
//
// What a remote admin may not do is what would reach past the state into the hub's machine:
// name a file or folder there (--home, --file, --store), or start a program there (an MCP
// server over stdio). The hub refuses those before anything runs.
import type { StateStore } from '../state/state-store.js';
import { maskUrlCredentials } from '../config/mask-url-credentials.js';
import { CommanderError, type Command } from 'commander';
import { AdminInputError, FILE_WITNESS_REFUSED, isRemoteWitness, type AdminCommands } from '../admin/admin-api.js';
import { CliExit, type CliContext } from './cli-context.js';
import { callHub, remoteHub } from './admin-client.js';

/** The commands a hub runs for an admin: which subcommands only read, which change the state. */
export const REMOTE_COMMANDS: Readonly<Record<string, { reads: readonly string[]; changes: readonly string[] }>> = {
  policy: { reads: ['list', 'test'], changes: ['set', 'remove'] },
  dlp: { reads: ['list', 'test'], changes: ['set', 'add', 'remove', 'output'] },
  routes: { reads: ['list', 'test'], changes: ['add', 'remove'] },
  providers: { reads: ['list', 'test'], changes: ['add', 'remove'] },
  budgets: { reads: ['list', 'test'], changes: ['set', 'remove'] },
  mcp: { reads: ['list', 'test'], changes: ['add', 'remove'] },
  prices: { reads: ['list', 'show'], changes: ['set', 'remove'] },
  settings: { reads: ['get'], changes: ['set'] },
};

export const HUB_OPTION_HELP = 'a hub URL: run this on the hub, over its admin API (admin token from gw login --admin or GW_ADMIN_TOKEN)';

/** Options that name a path or a database on the machine that runs the command. */
const LOCAL_ONLY_OPTIONS = new Set(['--home', '--file', '--store', '--hub']);
/** Option values kept out of the audit record: keys, header values, a child's variables. */
const SECRET_OPTIONS = new Set(['--api-key', '--header', '--env']);
const MAX_ARGS = 64;
const MAX_ARG_LENGTH = 4_096;

type CommandRun = Awaited<ReturnType<AdminCommands['run']>>;
type RemoteCommand = ReturnType<AdminCommands['read']>;

/** Checks a remote command's arguments; throws a one-line reason the hub answers 400 with. */
export function readRemoteCommand(value: unknown): RemoteCommand {
  if (!Array.isArray(value) || value.length < 2 || value.length > MAX_ARGS || !value.every((item) => typeof item === 'string' && item.length <= MAX_ARG_LENGTH)) {
    throw new AdminInputError(`"argv" is the command's arguments as strings, e.g. ["policy", "set", "team:eng", "--rpm", "60"] (2 to ${MAX_ARGS})`);
  }
  const argv = value as string[];
  const [noun, verb] = argv as [string, string];
  const known = REMOTE_COMMANDS[noun];
  if (!known || ![...known.reads, ...known.changes].includes(verb)) {
    throw new AdminInputError(`"${noun} ${verb}" is not run remotely; remote commands: ${Object.entries(REMOTE_COMMANDS).map(([name, verbs]) => `${name} ${[...verbs.reads, ...verbs.changes].join('|')}`).join('; ')}`);
  }
  for (const argument of argv.slice(2)) {
    const option = argument.split('=')[0]!;
    if (LOCAL_ONLY_OPTIONS.has(option)) throw new AdminInputError(`${option} names something on the hub's machine: run that command in the hub's shell`);
  }
  if (noun === 'mcp' && verb === 'add' && argv.some((argument) => argument === '--command' || argument.startsWith('--command=') || argument === '--env' || argument.startsWith('--env='))) {
    throw new AdminInputError('an MCP server over stdio (--command) runs a program on the hub: add it in the hub\'s shell; remotely, add servers by --url');
  }
  if (noun === 'settings' && verb === 'set' && argv[2] === 'audit_witness' && !isRemoteWitness(argv[3] ?? '')) throw new AdminInputError(FILE_WITNESS_REFUSED);
  const help = argv.includes('--help') || argv.includes('-h');
  return { argv, action: `${noun}.${verb}`, changes: known.changes.includes(verb) && !help };
}

export class RemoteCommandError extends Error {}

/** The command as the audit record keeps it: secret option values hidden, URL passwords masked. */
export function describeRemoteCommand(argv: readonly string[]): string {
  const shown: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    const [option] = argument.split('=');
    if (SECRET_OPTIONS.has(option!)) {
      shown.push(argument.includes('=') ? `${option}=***` : argument);
      // A variadic option (--header a=b c=d) takes every value up to the next option.
      while (!argument.includes('=') && index + 1 < argv.length && !argv[index + 1]!.startsWith('--')) {
        index += 1;
        shown.push('***');
      }
      continue;
    }
    shown.push(maskUrlCredentials(argument));
  }
  return shown.join(' ');
}

export interface HubCommandInput {
  /** The hub's live state: the command changes it as `gw … --home HUB` would, seen by every instance. */
  store: StateStore;
  home: string;
  env: NodeJS.ProcessEnv;
  /** main.ts's program builder, handed in (importing main here would make an import cycle). */
  buildProgram(context: CliContext): Command;
}

/** What `gw serve` hands the hub's admin API: check, describe and run remote commands. */
export function hubCommands(input: Omit<HubCommandInput, 'store' | 'buildProgram'>, buildProgram: HubCommandInput['buildProgram']): (store: StateStore) => AdminCommands {
  return (store) => ({ read: readRemoteCommand, describe: describeRemoteCommand, run: (command) => runCommandOnHub(command, { ...input, store, buildProgram }) });
}

/** Runs one checked command on the hub, its output captured; the CLI's own exit codes. */
export async function runCommandOnHub(command: RemoteCommand, input: HubCommandInput): Promise<CommandRun> {
  let stdout = '';
  let stderr = '';
  const context: CliContext = {
    stdout: { write: (text) => { stdout += text; } },
    stderr: { write: (text) => { stderr += text; } },
    env: { ...input.env },
    home: () => input.home,
    store: input.store,
  };
  let exitCode = 0;
  try {
    await input.buildProgram(context).parseAsync(['node', 'gw', ...command.argv]);
  } catch (error) {
    if (error instanceof CliExit) {
      if (error.message) stderr += `gw: ${error.message}\n`;
      exitCode = error.exitCode;
    } else if (error instanceof CommanderError) {
      exitCode = error.code === 'commander.helpDisplayed' || error.code === 'commander.help' ? 0 : 2;
    } else {
      throw error;
    }
  }
  return { exit_code: exitCode, stdout, stderr };
}

/**
 * On the laptop: `gw <remote command> … --hub URL` goes to the hub instead of the local state.
 * Returns the exit code, or null when the command is not one for the hub (run it here).
 */
export async function forwardToHub(args: readonly string[], context: CliContext): Promise<number | null> {
  if (!REMOTE_COMMANDS[args[0] ?? '']) return null;
  const kept: string[] = [];
  let hubFlag: string | undefined;
  let home: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index]!;
    const [option, inline] = [argument.split('=')[0], argument.includes('=') ? argument.slice(argument.indexOf('=') + 1) : undefined];
    if (option === '--hub' || option === '--home') {
      const value = inline ?? args[(index += 1)];
      if (option === '--hub') hubFlag = value; else home = value;
      continue;
    }
    kept.push(argument);
  }
  if (hubFlag === undefined) return null;
  const hub = await remoteHub(hubFlag, context, home);
  const run = await callHub<CommandRun>(hub!, 'POST', '/admin/api/commands', { argv: kept });
  context.stdout.write(run.stdout);
  context.stderr.write(run.stderr);
  return run.exit_code;
}
