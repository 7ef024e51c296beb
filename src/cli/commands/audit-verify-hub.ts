// `gw audit verify --hub URL`: the hub verifies its own trail (the console's Verify button, the same
// verifier as gw audit verify there) for an admin off the hub, with an admin token of any role
// (a viewer may verify). Exit 0 intact, 1 broken, as the local command.
import type { TrailVerdict } from '../../admin/audit-page.js';
import { callHub, remoteHub } from '../admin-client.js';
import { CliExit, type CliContext } from '../cli-context.js';

export async function runHubVerify(flag: string, options: { json?: boolean; home?: string }, context: CliContext): Promise<void> {
  const hub = await remoteHub(flag, context, options.home);
  if (hub === null) return;
  const verdict = await callHub<TrailVerdict>(hub, 'POST', '/admin/api/audit/verify');
  if (options.json) context.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
  else {
    for (const chain of verdict.chains) {
      context.stdout.write(chain.ok ? `intact: ${chain.name}, ${chain.records} records\n` : `BROKEN: ${chain.name}: ${chain.problem ?? 'see the hub\'s gw audit verify'}\n`);
      for (const warning of chain.warnings) context.stderr.write(`warning: ${chain.name}: ${warning}\n`);
    }
    context.stdout.write(`the hub ${hub.url} verified its trail in ${verdict.took_ms} ms: ${verdict.ok ? 'intact' : 'BROKEN'}\n`);
  }
  if (!verdict.ok) throw new CliExit(1, 'the hub\'s audit trail does not verify');
}
