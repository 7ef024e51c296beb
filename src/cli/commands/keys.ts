// `gw keys create --team T [--name N] [--expires DURATION]`, `gw keys list`, `gw keys revoke ID`.
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { withStore, formatTable } from '../state-command.js';
import { parseDuration } from '../../state/parse-duration.js';
import type { VirtualKeyRecord } from '../../state/schema.js';
import { createKey, keyStatus, listKeys, revokeKey } from '../../state/virtual-keys.js';
import { SESSION_KEY_NAME } from '../../state/session-key-name.js';
import { callHub, remoteHub } from '../admin-client.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const HUB_HELP = 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)';

interface KeysCreateOptions { team: string; name?: string; expires?: string; home?: string; hub?: string }
interface KeysListOptions { team?: string; json?: boolean; home?: string; hub?: string; sessions?: boolean }

export function registerKeysCommand(program: Command, context: CliContext): void {
  const keys = program.command('keys').description('Create, list and revoke virtual keys (sk-gw-…)');
  keys
    .command('create')
    .description('Create a key; it is printed once and stored only as a hash')
    .requiredOption('--team <team>', 'team the key belongs to')
    .option('--name <name>', 'a label to recognise the key by')
    .option('--expires <duration>', 'lifetime such as 30d, 12h, 90m, 2w or 45s (default: never)')
    .option('--home <dir>', HOME_HELP)
    .option('--hub <url>', HUB_HELP)
    .action(async (options: KeysCreateOptions) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const { record, key } = hub
        ? await callHub<VirtualKeyRecord & { key: string }>(hub, 'POST', '/admin/api/keys', { team: options.team, name: options.name, expires: options.expires }).then((made) => ({ record: made, key: made.key }))
        : await withStore(context, options.home, (store) => {
        const expiresInMs = options.expires === undefined ? undefined : parseDuration(options.expires);
        return createKey(store, { team: options.team, name: options.name ?? null, ...(expiresInMs === undefined ? {} : { expiresInMs }) });
      });
      context.stdout.write(`${key}\n`);
      const expiry = record.expires_at === null ? '' : `, expires ${record.expires_at}`;
      context.stderr.write(`created ${record.id} for team ${record.team}${expiry}; store it now: it is shown only once\n`);
    });
  keys
    .command('list')
    .description('List keys (never their secrets)')
    .option('--team <team>', 'only this team\'s keys')
    .option('--json', 'print JSON')
    .option('--sessions', 'include the session keys gw token and gw run hand out (hidden by default)')
    .option('--home <dir>', HOME_HELP)
    .option('--hub <url>', HUB_HELP)
    .action(async (options: KeysListOptions) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const { records, now } = hub
        ? { records: await callHub<VirtualKeyRecord[]>(hub, 'GET', `/admin/api/keys${options.team ? `?team=${encodeURIComponent(options.team)}` : ''}`), now: new Date() }
        : await withStore(context, options.home, async (store) => ({
        records: listKeys(store.snapshot(), options.team === undefined ? {} : { team: options.team }),
        now: store.now(),
      }));
      // Session keys (one per gw token / gw run session) would crowd the keys people made: hidden unless asked for.
      const shown = options.sessions ? records : records.filter((record) => record.name !== SESSION_KEY_NAME);
      const hidden = records.length - shown.length;
      const rows = shown.map((record) => describeKey(record, now));
      if (options.json) return context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      if (hidden > 0) context.stderr.write(`${hidden} session key${hidden === 1 ? '' : 's'} (gw token, gw run) not shown: gw keys list --sessions\n`);
      if (rows.length === 0) return context.stderr.write('no keys: create one with gw keys create --team TEAM\n');
      const header = ['ID', 'TEAM', 'NAME', 'HINT', 'CREATED', 'EXPIRES', 'STATUS'];
      const cells = rows.map((row) => [row.id, row.team, row.name === SESSION_KEY_NAME ? `${row.name} (session)` : row.name ?? '-', row.hint, row.created_at, row.expires_at ?? 'never', row.status]);
      context.stdout.write(formatTable([header, ...cells]));
    });
  keys
    .command('revoke')
    .description('Revoke a key by its id (vk_…); a running gateway refuses it within a second')
    .argument('<id>', 'the key id shown by gw keys list')
    .option('--home <dir>', HOME_HELP)
    .option('--hub <url>', HUB_HELP)
    .action(async (id: string, options: { home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const { record, changed } = hub
        ? await callHub<VirtualKeyRecord & { changed: boolean }>(hub, 'DELETE', `/admin/api/keys/${encodeURIComponent(id)}`).then((revoked) => ({ record: revoked, changed: revoked.changed }))
        : await withStore(context, options.home, (store) => revokeKey(store, id));
      context.stdout.write(changed ? `revoked ${record.id}\n` : `${record.id} was already revoked at ${record.revoked_at}\n`);
    });
}

/** Everything a person needs to pick a key, and never the hash. */
function describeKey(record: VirtualKeyRecord, now: Date) {
  const { id, team, name, hint, created_at, expires_at, revoked_at } = record;
  return { id, team, name, hint, created_at, expires_at, revoked_at, status: keyStatus(record, now) };
}

