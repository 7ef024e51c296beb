// What bin/gw.js runs: the command named on the command line, loading only that command's code
// (command-table.ts), so `gw --version`, `gw token` or `gw keys list` cost little more than
// starting Node. whole-program.ts's buildProgram is for what needs every command.
import { CommanderError, type Command } from 'commander';
import { CliExit, createProcessContext, type CliContext } from './cli-context.js';
import { addStandIn, commandNameIn, COMMAND_GROUPS, groupOf } from './command-table.js';
import { namesHub } from './remote-command-names.js';
import { addHubOptions, createRootProgram } from './root-program.js';

/** The program with the named command's group real and every other command a stand-in. */
async function buildProgramFor(args: readonly string[], context: CliContext): Promise<Command> {
  const wanted = groupOf(commandNameIn(args));
  if (wanted && wanted.load === null) return (await import('./whole-program.js')).buildProgram(context);
  const registers = await wanted?.load?.() ?? [];
  const program = createRootProgram(context);
  for (const group of COMMAND_GROUPS) {
    if (group === wanted) for (const register of registers) register(program, context);
    else for (const [term, description] of group.commands) addStandIn(program, term, description);
  }
  addHubOptions(program);
  return program;
}

/** Runs the CLI and returns the exit code; never prints a stack trace for an expected failure. */
export async function runCli(argv: string[], context: CliContext = createProcessContext()): Promise<number> {
  try {
    // The tool's own arguments must reach it untouched: commander would take its options for gw's.
    const run = argv.indexOf('run');
    if (run === 2 && argv[3] !== undefined && argv[3] !== '--help' && argv[3] !== '-h') {
      await (await import('./commands/run.js')).runFromArgv(argv.slice(3), context);
      return 0;
    }
    // `gw policy set … --hub URL` and the other governance commands: run on the hub instead.
    if (namesHub(argv.slice(2))) {
      const forwarded = await (await import('./remote-commands.js')).forwardToHub(argv.slice(2), context);
      if (forwarded !== null) return forwarded;
    }
    const program = await buildProgramFor(argv.slice(2), context);
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CliExit) {
      if (error.message) context.stderr.write(`gw: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 2;
    }
    throw error;
  }
}
