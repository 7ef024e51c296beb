// Governance commands run remotely: `gw policy set team:eng --rpm 60 --hub https://gw.example.com`
// sends its arguments to the hub's admin API (POST /admin/api/commands), and the hub runs the
// very same command, in-process, against its live state. Remote does exactly what local does
// because it is the same code: the parsing, the checks, the change and the printed answer.
//
// What a remote admin may not do is what would reach past the state into the hub's machine:
// name a file, a folder or an environment variable there (the hub's secrets live in those),
// or start a program there (an MCP server over stdio). Each remote command takes only the
// options listed in remote-allow-list.ts, and no value may name the hub's environment or files;
// the hub refuses anything else before it runs. Secrets an admin sends are values, kept in the
// state and never shown again (listings say `set`); the audit record hides them too.
import type { StateStore } from '../state/state-store.js';
import { maskUrlCredentials } from '../mask-url-credentials.js';
import { CommanderError, type Command } from 'commander';
import { AdminInputError, type AdminCommands } from '../admin/admin-api.js';
import { refuseRemoteSetting } from '../admin/remote-settings.js';
import { CliExit, type CliContext } from './cli-context.js';
import { callHub, remoteHub } from './admin-client.js';
import { refuseRemoteArguments } from './remote-allow-list.js';
import { REMOTE_COMMANDS } from './remote-command-names.js';

/** Option values kept out of the audit record: keys, header values, a child's variables. */
const SECRET_OPTIONS = new Set(['--api-key', '--header', '--env', '--credential']);
/** A routing target's own key (`provider/model,key=…`): hidden in the record, the rest kept. */
const TARGET_KEY = /(^|,)key=[^,]*/g;
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
  const refusal = refuseRemoteArguments(argv);
  if (refusal !== null) throw new AdminInputError(refusal);
  const settingRefusal = noun === 'settings' && verb === 'set' ? refuseRemoteSetting(argv[2] ?? '', argv[3] ?? '') : null;
  if (settingRefusal !== null) throw new AdminInputError(settingRefusal);
  const help = argv.includes('--help') || argv.includes('-h');
  return { argv, action: `${noun}.${verb}`, changes: known.changes.includes(verb) && !help };
}

/** The command as the audit record keeps it: secret option values hidden, URL passwords masked. */
function describeRemoteCommand(argv: readonly string[]): string {
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
    shown.push(maskUrlCredentials(argument.replace(TARGET_KEY, '$1key=***')));
  }
  return shown.join(' ');
}

export interface HubCommandInput {
  /** The hub's live state: the command changes it as `gw … --home HUB` would, seen by every instance. */
  store: StateStore;
  home: string;
  env: NodeJS.ProcessEnv;
  /** whole-program.ts's program builder, handed in (importing it here would make an import cycle). */
  buildProgram(context: CliContext): Command;
}

/** What `gw serve` hands the hub's admin API: check, describe and run remote commands. */
export function hubCommands(input: Omit<HubCommandInput, 'store' | 'buildProgram'>, buildProgram: HubCommandInput['buildProgram']): (store: StateStore) => AdminCommands {
  return (store) => ({ read: readRemoteCommand, describe: describeRemoteCommand, run: (command) => runCommandOnHub(command, { ...input, store, buildProgram }) });
}

/** Runs one checked command on the hub, its output captured; the CLI's own exit codes. */
async function runCommandOnHub(command: RemoteCommand, input: HubCommandInput): Promise<CommandRun> {
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
