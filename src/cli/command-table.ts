// Every top-level `gw` command by name, with what `gw --help` shows of it, and where its code is.
// `gw keys list` loads commands/keys.js and nothing of the others: each command's code (and what
// it imports: the state store, the audit reader, the MCP SDK…) is imported only when it runs.
// The other commands stay in the program as these light stand-ins, so the root help, the
// "did you mean" of a typo and the order of commands are those of the whole program (whole-program.ts);
// test/cli/command-table.test.ts fails when this table and the real commands disagree.
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';

type Register = (program: Command, context: CliContext) => unknown;

export interface CommandGroup {
  /** Each command as the root help lists it: `name [options] <arg> [args...]`, then its description. */
  readonly commands: ReadonlyArray<readonly [term: string, description: string]>;
  /** Registers the group's real commands, in order; null: the group needs the whole program (whole-program.ts). */
  readonly load: (() => Promise<readonly Register[]>) | null;
}

/** In whole-program.ts's order of registration, which is the root help's order. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  // serve hands the hub the whole program (remote commands); completion prints it.
  { commands: [['serve [options]', 'Run the gateway (default http://127.0.0.1:8080)']], load: null },
  {
    commands: [['teams', 'Create and list teams (every key belongs to one)']],
    load: async () => [(await import('./commands/teams.js')).registerTeamsCommand, (await import('./commands/team-keys.js')).registerTeamKeyCommands],
  },
  { commands: [['people', 'People who may log in to this hub with gw login (each in one team)']], load: async () => [(await import('./commands/people.js')).registerPeopleCommand] },
  { commands: [['device', 'Approve or deny device logins (gw login) waiting on this hub']], load: async () => [(await import('./commands/device.js')).registerDeviceCommand] },
  { commands: [['tokens', 'List and revoke personal tokens (atu-…) issued by device login']], load: async () => [(await import('./commands/tokens.js')).registerTokensCommand] },
  {
    commands: [
      ['login [options]', 'Log in to a gw hub with device login; then gw serve runs as your sidecar'],
      ['logout [options]', 'Revoke the token at the hub and delete it from this computer'],
      ['whoami [options]', 'Show the person, team and hub of this login, and where the token is kept'],
    ],
    load: async () => [(await import('./commands/login.js')).registerLoginCommands],
  },
  { commands: [['keys', 'Create, list and revoke virtual keys (sk-gw-…)']], load: async () => [(await import('./commands/keys.js')).registerKeysCommand] },
  { commands: [['settings', 'Show and change gateway settings']], load: async () => [(await import('./commands/settings.js')).registerSettingsCommand] },
  { commands: [['providers', 'Add, list, remove and test upstream providers']], load: async () => [(await import('./commands/providers.js')).registerProvidersCommand] },
  {
    commands: [['routes', 'Routing rules: a model name → weighted targets with fallbacks, retries, time-outs and session affinity']],
    load: async () => [(await import('./commands/routes.js')).registerRoutesCommand],
  },
  {
    commands: [['policy', 'Policies per team and key: models, providers, operations, max tokens, rate limits, shadow mode']],
    load: async () => [(await import('./commands/policy.js')).registerPolicyCommand],
  },
  {
    commands: [['dlp', 'Data-loss prevention rules: built-in secret and PII detectors, custom patterns, actions per team and key']],
    load: async () => [(await import('./commands/dlp.js')).registerDlpCommand],
  },
  {
    commands: [['guardrails', 'External guardrails gw calls on requests (pre) and answers (post): HTTP, Presidio, OpenAI moderation, Lakera, Bedrock']],
    load: async () => [(await import('./commands/guardrails.js')).registerGuardrailsCommand],
  },
  { commands: [['audit', 'Inspect the hash-chained audit trail']], load: async () => [(await import('./commands/audit.js')).registerAuditCommand] },
  {
    commands: [['prices', 'Model prices: the bundled dataset, and local overrides for private, self-hosted or negotiated prices']],
    load: async () => [(await import('./commands/prices.js')).registerPricesCommand],
  },
  {
    commands: [['budgets', 'Spend budgets per key, team or person: USD per day, week or month; hard (refuse) or soft (warn)']],
    load: async () => [(await import('./commands/budgets.js')).registerBudgetsCommand],
  },
  {
    commands: [['claude-settings', 'Claude Code\'s managed settings per team, served to people signed in with Claude Code\'s /login']],
    load: async () => [(await import('./commands/claude-settings.js')).registerClaudeSettingsCommand],
  },
  {
    commands: [['usage [options]', 'Tokens and cost from the audit trail, by team, person, key, model, provider, day or session']],
    load: async () => [(await import('./commands/usage.js')).registerUsageCommand],
  },
  {
    commands: [['db', 'The PostgreSQL store\'s schema'], ['state', 'Move the state between state.json and PostgreSQL']],
    load: async () => [(await import('./commands/db.js')).registerDbCommands],
  },
  { commands: [['admin', 'Administration of a hub: its admin API and console (/ui)']], load: async () => [(await import('./commands/admin.js')).registerAdminCommand] },
  {
    commands: [
      ['run [options] <tool> [args...]', 'Run a coding tool (claude, codex, gemini, opencode) through the local gateway, starting one when none answers; the tool\'s own arguments follow'],
    ],
    load: async () => [(await import('./commands/run.js')).registerRunCommands],
  },
  {
    commands: [
      ['token [options]', 'Print a short-lived credential for the local gateway (an hour-long session key, reused until it nears expiry; any value on a sidecar): usable as Claude Code\'s apiKeyHelper'],
    ],
    load: async () => [(await import('./commands/token.js')).registerTokenCommand],
  },
  {
    commands: [['mcp', 'MCP servers behind gw\'s /mcp: tools, prompts and resources under the same keys, policy, DLP and audit']],
    load: async () => [(await import('./commands/mcp.js')).registerMcpCommand],
  },
  { commands: [['completion <shell>', 'Print the shell completion script for bash, zsh or fish']], load: null },
];

/** The command a `gw` argv (after `gw`) names: its first word that is not an option, past `help`. */
export function commandNameIn(args: readonly string[]): string | undefined {
  const words: string[] = [];
  for (let index = 0; index < args.length && words.length < 2; index += 1) {
    const argument = args[index] ?? '';
    if (argument === '--store') index += 1; // the only global option that takes a value
    else if (!argument.startsWith('-')) words.push(argument);
  }
  return words[0] === 'help' ? words[1] : words[0];
}

export function groupOf(name: string | undefined): CommandGroup | undefined {
  return name === undefined ? undefined : COMMAND_GROUPS.find((group) => group.commands.some(([term]) => term.split(' ')[0] === name));
}

/** A stand-in the root help shows exactly as the real command: name, `[options]`, arguments, description. */
export function addStandIn(program: Command, term: string, description: string): void {
  const [name = '', ...rest] = term.split(' ');
  const standIn = program.command(name).description(description);
  for (const part of rest) {
    // Never parsed: a stand-in's only option makes commander write `[options]` after its name.
    if (part === '[options]') standIn.option('--stand-in');
    else standIn.argument(part);
  }
}
