// The commander program: one file per noun under commands/, wired here.
import { Command, CommanderError } from 'commander';
import { CliExit, createProcessContext, type CliContext } from './cli-context.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerProvidersCommand } from './commands/providers.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSettingsCommand } from './commands/settings.js';
import { registerTeamsCommand } from './commands/teams.js';
import { registerPolicyCommand } from './commands/policy.js';
import { registerDlpCommand } from './commands/dlp.js';
import { registerRoutesCommand } from './commands/routes.js';
import { registerDeviceCommand } from './commands/device.js';
import { registerLoginCommands } from './commands/login.js';
import { registerPeopleCommand } from './commands/people.js';
import { registerTeamKeyCommands } from './commands/team-keys.js';
import { registerTokensCommand } from './commands/tokens.js';
import { registerPricesCommand } from './commands/prices.js';
import { registerBudgetsCommand } from './commands/budgets.js';
import { registerUsageCommand } from './commands/usage.js';
import { registerDbCommands } from './commands/db.js';
import { registerAdminCommand } from './commands/admin.js';
import { registerRunCommands, runFromArgv } from './commands/run.js';
import { registerMcpCommand } from './commands/mcp.js';
import { forwardToHub, hubCommands, HUB_OPTION_HELP, REMOTE_COMMANDS } from './remote-commands.js';

export function buildProgram(context: CliContext): Command {
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
  registerServeCommand(program, context, (input) => hubCommands(input, buildProgram));
  registerTeamsCommand(program, context);
  registerTeamKeyCommands(program, context);
  registerPeopleCommand(program, context);
  registerDeviceCommand(program, context);
  registerTokensCommand(program, context);
  registerLoginCommands(program, context);
  registerKeysCommand(program, context);
  registerSettingsCommand(program, context);
  registerProvidersCommand(program, context);
  registerRoutesCommand(program, context);
  registerPolicyCommand(program, context);
  registerDlpCommand(program, context);
  registerAuditCommand(program, context);
  registerPricesCommand(program, context);
  registerBudgetsCommand(program, context);
  registerUsageCommand(program, context);
  registerDbCommands(program, context);
  registerAdminCommand(program, context);
  registerRunCommands(program, context);
  registerMcpCommand(program, context);
  registerCompletionCommand(program, context);
  // --hub on each governance command, for its help and completions; runCli forwards it before parsing.
  for (const [noun, verbs] of Object.entries(REMOTE_COMMANDS)) {
    const parent = program.commands.find((command) => command.name() === noun);
    for (const verb of [...verbs.reads, ...verbs.changes]) parent?.commands.find((command) => command.name() === verb)?.option('--hub <url>', HUB_OPTION_HELP);
  }
  return program;
}

/** Runs the CLI and returns the exit code; never prints a stack trace for an expected failure. */
export async function runCli(argv: string[], context: CliContext = createProcessContext()): Promise<number> {
  const program = buildProgram(context);
  try {
    // The tool's own arguments must reach it untouched: commander would take its options for gw's.
    const run = argv.indexOf('run');
    if (run === 2 && argv[3] !== undefined && argv[3] !== '--help' && argv[3] !== '-h') {
      await runFromArgv(argv.slice(3), context);
      return 0;
    }
    // `gw policy set … --hub URL` and the other governance commands: run on the hub instead.
    const forwarded = await forwardToHub(argv.slice(2), context);
    if (forwarded !== null) return forwarded;
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
