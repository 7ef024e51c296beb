// gw admin tokens create|list|revoke: the credentials of the hub's admin API and console
// (/admin/api, /ui). Made on the hub's own state (or its --store), or over the API from
// another machine with --hub and an admin token (GW_ADMIN_TOKEN).
import type { Command } from 'commander';
import { addAdminToken, adminTokensOf, revokeAdminToken } from '../../state/admin-tokens.js';
import type { CliContext } from '../cli-context.js';
import { cliActor, formatTable, withStore } from '../state-command.js';
import { callHub, remoteHub } from '../admin-client.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const HUB_HELP = 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)';

export function registerAdminCommand(program: Command, context: CliContext): void {
  const tokens = program.command('admin').description('Administration of a hub: its admin API and console (/ui)')
    .command('tokens').description('Admin tokens: the credentials of /admin/api and the console');
  tokens.command('create')
    .description('Make an admin token (shown once)')
    .requiredOption('--name <name>', 'who holds it (an email, or a label such as ci)')
    .option('--role <role>', 'admin (everything), team_admin (their teams\' people, keys, budgets and policies) or viewer (read-only)', 'admin')
    .option('--team <team>', 'a team_admin\'s team (repeat for more)', (value: string, previous: string[]) => [...previous, value], [])
    .option('--home <dir>', HOME_HELP).option('--hub <url>', HUB_HELP)
    .action(async (options: { name: string; role: string; team: string[]; home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const made = hub
        ? await callHub<{ id: string; token: string }>(hub, 'POST', '/admin/api/admin-tokens', { name: options.name, role: options.role, teams: options.team })
        : await withStore(context, options.home, (store) => store.update((draft) => {
          const { record, token } = addAdminToken(draft, { name: options.name, createdBy: cliActor(), now: store.now(), role: options.role, teams: options.team });
          return { id: record.id, token };
        }));
      const teams = options.team.length > 0 ? ` of ${options.team.join(', ')}` : '';
      context.stderr.write(`created admin token ${made.id} for ${options.name} (${options.role}${teams}); it is shown only once:\n`);
      context.stdout.write(`${made.token}\n`);
    });
  tokens.command('list')
    .description('List admin tokens (never the tokens themselves)')
    .option('--json', 'print JSON').option('--home <dir>', HOME_HELP).option('--hub <url>', HUB_HELP)
    .action(async (options: { json?: boolean; home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const list = hub
        ? await callHub<Array<{ id: string; name: string; hint: string; created_at: string; created_by: string; revoked_at: string | null; role?: string; teams?: string[] }>>(hub, 'GET', '/admin/api/admin-tokens')
        : await withStore(context, options.home, async (store) => adminTokensOf(store.snapshot()).map(({ hash: _hash, ...record }) => record));
      if (options.json) return context.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      context.stdout.write(formatTable([['ID', 'NAME', 'ROLE', 'TOKEN', 'CREATED', 'BY', 'STATUS'], ...list.map((record) => [
        record.id, record.name, `${record.role ?? 'admin'}${record.teams?.length ? ` (${record.teams.join(',')})` : ''}`, record.hint, record.created_at, record.created_by, record.revoked_at === null ? 'active' : `revoked ${record.revoked_at}`,
      ])]));
    });
  tokens.command('revoke')
    .description('Revoke an admin token: its API calls and console sessions stop at once')
    .argument('<id>', 'adm_… (see gw admin tokens list)')
    .option('--home <dir>', HOME_HELP).option('--hub <url>', HUB_HELP)
    .action(async (id: string, options: { home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      if (hub) await callHub(hub, 'DELETE', `/admin/api/admin-tokens/${encodeURIComponent(id)}`);
      else await withStore(context, options.home, (store) => store.update((draft) => revokeAdminToken(draft, id, store.now())));
      context.stdout.write(`revoked admin token ${id}\n`);
    });
}


