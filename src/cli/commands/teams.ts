// `gw teams create NAME`, `gw teams list [--json]`.
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { withStore, formatTable } from '../state-command.js';
import { createTeam, listTeams } from '../../state/teams.js';

interface TeamsListOptions { home?: string; json?: boolean }

export function registerTeamsCommand(program: Command, context: CliContext): void {
  const teams = program.command('teams').description('Create and list teams (every key belongs to one)');
  teams
    .command('create')
    .description('Create a team')
    .argument('<name>', 'lowercase letters, digits, "-" or "_", up to 64 characters')
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .action(async (name: string, options: { home?: string }) => {
      const team = await withStore(context, options.home, (store) => createTeam(store, name));
      context.stdout.write(`created team ${team.name}\n`);
    });
  teams
    .command('list')
    .description('List teams')
    .option('--json', 'print JSON')
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .action(async (options: TeamsListOptions) => {
      const state = await withStore(context, options.home, async (store) => store.snapshot());
      const rows = listTeams(state).map((team) => ({
        name: team.name,
        created_at: team.created_at,
        keys: state.keys.filter((key) => key.team === team.name && key.revoked_at === null).length,
      }));
      if (options.json) return context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      if (rows.length === 0) return context.stderr.write('no teams yet: create one with gw teams create NAME\n');
      const table = [['NAME', 'CREATED', 'KEYS'], ...rows.map((row) => [row.name, row.created_at, String(row.keys)])];
      context.stdout.write(formatTable(table));
    });
}

