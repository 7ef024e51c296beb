// The whole commander program: one file per noun under commands/, wired here. `gw` itself runs
// through run-cli.ts, which loads only the command being run; this is the program for what needs
// every command: completions, `gw serve` (a hub runs admins' remote commands), in-process tests.
// main.ts re-exports it.
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerProvidersCommand } from './commands/providers.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSettingsCommand } from './commands/settings.js';
import { registerTeamsCommand } from './commands/teams.js';
import { registerPolicyCommand } from './commands/policy.js';
import { registerDlpCommand } from './commands/dlp.js';
import { registerGuardrailsCommand } from './commands/guardrails.js';
import { registerRoutesCommand } from './commands/routes.js';
import { registerDeviceCommand } from './commands/device.js';
import { registerLoginCommands } from './commands/login.js';
import { registerPeopleCommand } from './commands/people.js';
import { registerTeamKeyCommands } from './commands/team-keys.js';
import { registerTokensCommand } from './commands/tokens.js';
import { registerPricesCommand } from './commands/prices.js';
import { registerBudgetsCommand } from './commands/budgets.js';
import { registerClaudeSettingsCommand } from './commands/claude-settings.js';
import { registerUsageCommand } from './commands/usage.js';
import { registerDbCommands } from './commands/db.js';
import { registerAdminCommand } from './commands/admin.js';
import { registerRunCommands } from './commands/run.js';
import { registerTokenCommand } from './commands/token.js';
import { registerMcpCommand } from './commands/mcp.js';
import { hubCommands } from './remote-commands.js';
import { addHubOptions, createRootProgram } from './root-program.js';

/** In command-table.ts's order, which is the root help's. */
export function buildProgram(context: CliContext): Command {
  const program = createRootProgram(context);
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
  registerGuardrailsCommand(program, context);
  registerAuditCommand(program, context);
  registerPricesCommand(program, context);
  registerBudgetsCommand(program, context);
  registerClaudeSettingsCommand(program, context);
  registerUsageCommand(program, context);
  registerDbCommands(program, context);
  registerAdminCommand(program, context);
  registerRunCommands(program, context);
  registerTokenCommand(program, context);
  registerMcpCommand(program, context);
  registerCompletionCommand(program, context);
  addHubOptions(program);
  return program;
}
