// A team's live key (src/state/live-keys.ts): made when the team is created
// (a hook on `gw teams create`) and replaced with `gw teams rotate-key T`.
import type { Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { withStore } from '../state-command.js';
import { loadOrCreateHubSecret } from '../../hub/hub-secret.js';
import { ensureLiveKey, rotateLiveKey } from '../../state/live-keys.js';
import { parseDuration } from '../../state/parse-duration.js';

export function registerTeamKeyCommands(program: Command, context: CliContext): void {
  const teams = program.commands.find((command) => command.name() === 'teams');
  if (!teams) throw new Error('register the teams command first');
  teams.commands.find((command) => command.name() === 'create')?.hook('postAction', async (command) => {
    const home = context.home(command.opts<{ home?: string }>().home);
    await withStore(context, home, async (store) => ensureLiveKey(store, String(command.args[0]), await loadOrCreateHubSecret(store)));
  });
  teams.command('rotate-key')
    .description('Replace the team\'s live key; the old one stays valid for --overlap, and sidecars re-exchange')
    .argument('<team>', 'team name')
    .option('--overlap <duration>', 'how long the old key keeps working: 0s to cut it now, else like 30m or 2h', '2h')
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .action(async (team: string, options: { overlap: string; home?: string }) => {
      const overlapMs = options.overlap.trim() === '0s' || options.overlap.trim() === '0' ? 0 : withUsage(() => parseDuration(options.overlap));
      const home = context.home(options.home);
      const live = await withStore(context, home, async (store) => rotateLiveKey(store, team, await loadOrCreateHubSecret(store), overlapMs));
      const until = overlapMs === 0 ? 'now' : `in ${options.overlap}`;
      context.stdout.write(`rotated the live key of team ${team}: now ${live.key_id}; the previous one stops working ${until}\n`);
    });
}

function withUsage<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new CliExit(2, error instanceof Error ? error.message : String(error));
  }
}
