// The `gw` program without its commands: name, version, the global --store, where output goes.
// whole-program.ts adds every command to it; run-cli.ts adds only the one being run (command-table.ts).
import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { HUB_OPTION_HELP, REMOTE_COMMANDS } from './remote-command-names.js';

export function createRootProgram(context: CliContext): Command {
  const program = new Command('gw')
    .description('gw: an AI gateway for OpenAI, Anthropic and Google GenAI clients')
    .version('0.1.0')
    .showHelpAfterError()
    .option('--store <url>', 'PostgreSQL URL holding the state instead of the home\'s state.json (GW_DATABASE_URL)')
    .exitOverride();
  // Every command reads the store from the environment, so a global --store reaches them all
  // (and a background gw serve started by a command inherits it).
  program.hook('preAction', (_program, action) => {
    const { store } = program.opts<{ store?: string }>();
    if (store !== undefined) context.env.GW_DATABASE_URL = store;
    const names: string[] = [];
    for (let command: typeof action | null = action; command && command !== program; command = command.parent) names.unshift(command.name());
    context.command = names.join(' ');
  });
  program.configureOutput({
    writeOut: (text) => context.stdout.write(text),
    writeErr: (text) => context.stderr.write(text),
  });
  return program;
}

/** --hub on each governance command, for its help and completions; runCli forwards it before parsing. */
export function addHubOptions(program: Command): void {
  for (const [noun, verbs] of Object.entries(REMOTE_COMMANDS)) {
    const parent = program.commands.find((command) => command.name() === noun);
    for (const verb of [...verbs.reads, ...verbs.changes]) parent?.commands.find((command) => command.name() === verb)?.option('--hub <url>', HUB_OPTION_HELP);
  }
}
