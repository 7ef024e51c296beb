// gw audit witness-key: the public key this home cosigns checkpoints with when it serves as a
// witness (a hub), for an auditor's `gw audit verify --ocsf --witness-key`. Made on first use
// (gw serve makes it on the first accepted push), so it can be handed out before any sidecar pushes.
import path from 'node:path';
import type { Command } from 'commander';
import { fingerprintOf } from '../../audit/key-fingerprint.js';
import { loadOrCreateWitnessKey, WITNESS_PUBLIC_KEY_FILE } from '../../audit/witness-signing-key.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { errorMessage } from '../../error-message.js';

interface WitnessKeyFlags {
  home?: string;
  json?: boolean;
}

async function runWitnessKey(flags: WitnessKeyFlags, context: CliContext): Promise<void> {
  const home = context.home(flags.home);
  let key;
  try {
    key = await loadOrCreateWitnessKey(home);
  } catch (error) {
    throw new CliExit(2, `cannot read or make the witness key in ${home}: ${errorMessage(error)}`);
  }
  const file = path.join(home, WITNESS_PUBLIC_KEY_FILE);
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ public_key: key.publicKey, fingerprint: fingerprintOf(key.publicKey), file })}\n`);
    return;
  }
  context.stdout.write(`${key.publicKey}\n`);
  context.stderr.write(`note: witness key ${fingerprintOf(key.publicKey)} (also in ${file}): give it to auditors for gw audit verify --ocsf FILE --key PUB --witness-key ${file}\n`);
}

export function registerAuditWitnessKeyCommand(audit: Command, context: CliContext): void {
  audit
    .command('witness-key')
    .description('Print the public key this home cosigns the checkpoints it witnesses with (a hub), making it on first use')
    .option('--json', 'print one JSON object')
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .action(async (flags: WitnessKeyFlags) => runWitnessKey(flags, context));
}
