// `gw tokens list [--person EMAIL] [--json]`, `gw tokens revoke ID`: personal atu- tokens on this hub.
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { revokePersonalToken, tokenStatus } from '../../state/personal-tokens.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

export function registerTokensCommand(program: Command, context: CliContext): void {
  const tokens = program.command('tokens').description('List and revoke personal tokens (atu-…) issued by device login');
  tokens.command('list')
    .description('List tokens (never their secrets)')
    .option('--person <email>', 'only this person\'s tokens')
    .option('--json', 'print JSON')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: { person?: string; json?: boolean; home?: string }) => {
      const { records, now } = await withStore(context, options.home, async (store) => ({ records: store.snapshot().tokens, now: store.now() }));
      const rows = records
        .filter((record) => options.person === undefined || record.person === options.person.trim().toLowerCase())
        .map(({ hash: _hash, ...record }) => ({ ...record, status: tokenStatus(record as Parameters<typeof tokenStatus>[0], now) }));
      if (options.json) return context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      if (rows.length === 0) return context.stderr.write('no tokens: people get one with gw login\n');
      const header = ['ID', 'PERSON', 'HINT', 'CREATED', 'EXPIRES', 'FROM', 'STATUS'];
      context.stdout.write(formatTable([header, ...rows.map((row) => [row.id, row.person, row.hint, row.created_at, row.expires_at, row.device.ip, row.status])]));
    });
  tokens.command('revoke')
    .description('Revoke a token by id (tok_…); the hub and its session credentials refuse it within seconds, and the sidecar answers "run gw login" until a new gw login, which it picks up without a restart')
    .argument('<id>', 'the token id shown by gw tokens list')
    .option('--home <dir>', HOME_HELP)
    .action(async (id: string, options: { home?: string }) => {
      const { record, changed } = await withStore(context, options.home, (store) => revokePersonalToken(store, id));
      context.stdout.write(changed ? `revoked ${record.id} (${record.person})\n` : `${record.id} was already revoked at ${record.revoked_at}\n`);
    });
}
