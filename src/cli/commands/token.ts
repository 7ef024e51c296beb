// `gw token`: prints the credential `gw run` would give a tool (local-credential.ts), so Claude
// Code's apiKeyHelper or a `$(gw token)` in a curl line can run it. Its own command group
// (command-table.ts): it is run often, and loads only what finding the gateway and the key needs.
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { credentialFor } from '../local-credential.js';
import { findOrStartGateway } from '../local-gateway.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

export function registerTokenCommand(program: Command, context: CliContext): void {
  program.command('token')
    .description('Print a short-lived credential for the local gateway (an hour-long session key, reused until it nears expiry; any value on a sidecar): usable as Claude Code\'s apiKeyHelper')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: { home?: string }) => {
      const home = context.home(options.home);
      const gateway = await findOrStartGateway(context, home);
      context.stdout.write(`${await credentialFor(gateway, context, home)}\n`);
    });
}
