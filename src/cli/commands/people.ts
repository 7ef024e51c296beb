// `gw people add EMAIL --team T`, `gw people list [--json]`, `gw people remove EMAIL`.
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { addPerson, listPeople, removePerson } from '../../state/people.js';
import { callHub, remoteHub } from '../admin-client.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const HUB_HELP = 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)';

export function registerPeopleCommand(program: Command, context: CliContext): void {
  const people = program.command('people').description('People who may log in to this hub with gw login (each in one team)');
  people.command('add')
    .description('Add a person; their device logins are approved for this email')
    .argument('<email>', 'the person\'s email (what the verification page or the identity provider reports)')
    .requiredOption('--team <team>', 'team whose live key serves their requests')
    .option('--home <dir>', HOME_HELP)
    .option('--hub <url>', HUB_HELP)
    .action(async (email: string, options: { team: string; home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const person = hub
        ? await callHub<{ email: string; team: string }>(hub, 'POST', '/admin/api/people', { email, team: options.team })
        : await withStore(context, options.home, (store) => addPerson(store, email, options.team));
      context.stdout.write(`added ${person.email} to team ${person.team}\n`);
    });
  people.command('list')
    .description('List people')
    .option('--json', 'print JSON')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const rows = await withStore(context, options.home, async (store) => {
        const now = store.now().getTime();
        const { tokens } = store.snapshot();
        const active = (email: string) => tokens.filter((token) => token.person === email && token.revoked_at === null && Date.parse(token.expires_at) > now).length;
        return listPeople(store.snapshot()).map((person) => ({ ...person, active_tokens: active(person.email) }));
      });
      if (options.json) return context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      if (rows.length === 0) return context.stderr.write('no people yet: add one with gw people add EMAIL --team TEAM\n');
      context.stdout.write(formatTable([['EMAIL', 'TEAM', 'ADDED', 'TOKENS'], ...rows.map((row) => [row.email, row.team, row.created_at, String(row.active_tokens)])]));
    });
  people.command('remove')
    .description('Remove a person and revoke their tokens (a running hub refuses them within a second)')
    .argument('<email>', 'the person\'s email')
    .option('--home <dir>', HOME_HELP)
    .option('--hub <url>', HUB_HELP)
    .action(async (email: string, options: { home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const { person, revokedTokens } = hub
        ? await callHub<{ person: { email: string }; revoked_tokens: number }>(hub, 'DELETE', `/admin/api/people/${encodeURIComponent(email)}`).then((removed) => ({ person: removed.person, revokedTokens: removed.revoked_tokens }))
        : await withStore(context, options.home, (store) => removePerson(store, email));
      context.stdout.write(`removed ${person.email}; revoked ${revokedTokens} token${revokedTokens === 1 ? '' : 's'}\n`);
    });
}
