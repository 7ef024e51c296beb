// Which commands a hub runs for an admin (remote-commands.ts), apart from the code that runs
// them: every `gw` start reads this table to know whether `--hub` is in play, and must not load
// the admin API to find out.

/** The commands a hub runs for an admin: which subcommands only read, which change the state. */
export const REMOTE_COMMANDS: Readonly<Record<string, { reads: readonly string[]; changes: readonly string[] }>> = {
  policy: { reads: ['list', 'test'], changes: ['set', 'remove'] },
  dlp: { reads: ['list', 'test'], changes: ['set', 'add', 'remove', 'output'] },
  routes: { reads: ['list', 'test'], changes: ['add', 'remove'] },
  providers: { reads: ['list', 'test'], changes: ['add', 'remove'] },
  budgets: { reads: ['list', 'test'], changes: ['set', 'remove'] },
  mcp: { reads: ['list', 'test'], changes: ['add', 'remove'] },
  guardrails: { reads: ['list'], changes: ['add', 'remove'] },
  prices: { reads: ['list', 'show'], changes: ['set', 'remove'] },
  settings: { reads: ['get'], changes: ['set'] },
  'claude-settings': { reads: ['show'], changes: ['set', 'clear'] },
};

export const HUB_OPTION_HELP = 'a hub URL: run this on the hub, over its admin API (admin token from gw login --admin or GW_ADMIN_TOKEN)';

/** True when `args` (argv after `gw`) is a remote command given `--hub`: only then is remote-commands.ts loaded. */
export function namesHub(args: readonly string[]): boolean {
  return REMOTE_COMMANDS[args[0] ?? ''] !== undefined && args.some((argument) => argument === '--hub' || argument.startsWith('--hub='));
}
