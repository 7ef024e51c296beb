// `gw device approve CODE --person EMAIL`, `gw device deny CODE`, `gw device list [--json]`:
// the hub admin's side of device login when no identity provider approves.
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { approveDeviceCode, denyDeviceCode, formatUserCode, isLive } from '../../state/device-codes.js';
import { normalizeEmail } from '../../state/people.js';
import { callHub, remoteHub } from '../admin-client.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const HUB_HELP = 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)';

export function registerDeviceCommand(program: Command, context: CliContext): void {
  const device = program.command('device').description('Approve or deny device logins (gw login) waiting on this hub');
  device.command('approve')
    .description('Approve a waiting login for a person; their gw login finishes on its next poll')
    .argument('<code>', 'the code the person sees, like BCDF-GHJK')
    .requiredOption('--person <email>', 'the person the token is issued to (see gw people list)')
    .option('--home <dir>', HOME_HELP)
    .option('--hub <url>', HUB_HELP)
    .action(async (code: string, options: { person: string; home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      if (hub) {
        const approved = await callHub<{ user_code: string; person: string }>(hub, 'POST', `/admin/api/devices/${encodeURIComponent(code)}/approve`, { person: options.person });
        context.stdout.write(`approved ${approved.user_code} for ${approved.person}\n`);
        return;
      }
      const record = await withStore(context, options.home, (store) => approveDeviceCode(store, code, normalizeEmail(options.person), 'cli'));
      context.stdout.write(`approved ${formatUserCode(record.user_code)} for ${record.person} (requested from ${record.requester.ip}, ${record.requester.user_agent || 'no user agent'})\n`);
    });
  device.command('deny')
    .description('Deny a waiting login')
    .argument('<code>', 'the code, like BCDF-GHJK')
    .option('--home <dir>', HOME_HELP)
    .option('--hub <url>', HUB_HELP)
    .action(async (code: string, options: { home?: string; hub?: string }) => {
      const hub = await remoteHub(options.hub, context, options.home);
      const denied = hub
        ? await callHub<{ user_code: string }>(hub, 'POST', `/admin/api/devices/${encodeURIComponent(code)}/deny`, {})
        : await withStore(context, options.home, async (store) => ({ user_code: formatUserCode((await denyDeviceCode(store, code, 'cli')).user_code) }));
      context.stdout.write(`denied ${denied.user_code}\n`);
    });
  device.command('list')
    .description('List device logins of the last day: who asked, from where, and their state')
    .option('--json', 'print JSON')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const { codes, now } = await withStore(context, options.home, async (store) => ({ codes: store.snapshot().device_codes, now: store.now() }));
      // Never the device_code hash: it is nobody's business outside the hub.
      const rows = codes.map((code) => ({
        code: formatUserCode(code.user_code), status: code.status === 'pending' && !isLive(code, now) ? 'expired' : code.status,
        requested_at: code.created_at, expires_at: code.expires_at, ip: code.requester.ip, user_agent: code.requester.user_agent,
        client_host: code.requester.client_host, claimed_email: code.claimed_email, person: code.person, approved_by: code.approved_by,
      }));
      if (options.json) return context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      if (rows.length === 0) return context.stderr.write('no device logins in the last day\n');
      const header = ['CODE', 'STATUS', 'REQUESTED', 'FROM', 'PROGRAM', 'CLAIMED BY', 'PERSON'];
      context.stdout.write(formatTable([header, ...rows.map((row) => [row.code, row.status, row.requested_at, row.ip, row.user_agent.slice(0, 40), row.claimed_email ?? '-', row.person ?? '-'])]));
    });
}
