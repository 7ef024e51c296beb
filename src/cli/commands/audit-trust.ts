// gw audit trust add|list|remove: the operator's list of audit keys that `gw audit verify`
// accepts (src/audit/trust-file.ts). Adding the keys of the other instances of a store, or a
// sidecar's, is how their chains verify; anything signed by a key not listed fails.
import path from 'node:path';
import type { Command } from 'commander';
import { addTrustedKey, defaultTrustFile, fingerprintOf, readTrustFile, removeTrustedKey } from '../../audit/trust-file.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { readKeyArgument } from '../trusted-keys.js';
import { errorMessage } from '../../error-message.js';

interface TrustCommandFlags {
  home?: string;
  trustFile?: string;
  name?: string;
}

function trustFileOf(flags: TrustCommandFlags, context: CliContext): string {
  return flags.trustFile === undefined ? defaultTrustFile(context.home(flags.home)) : path.resolve(flags.trustFile);
}

async function listKeys(file: string): Promise<Awaited<ReturnType<typeof readTrustFile>>> {
  try {
    return await readTrustFile(file);
  } catch (error) {
    throw new CliExit(2, `cannot read the audit trust file: ${errorMessage(error)}`);
  }
}

export function registerAuditTrustCommand(audit: Command, context: CliContext): void {
  const trust = audit.command('trust').description('The audit keys gw audit verify trusts (anything else fails verification)');
  const withFileOptions = (command: Command): Command => command
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .option('--trust-file <path>', 'the trust file (default: <home>/audit-trust.json)');
  withFileOptions(trust.command('add <key>').description('Trust an audit.pub file (or the key itself)'))
    .option('--name <name>', 'whose key it is (an instance, a person\'s sidecar)')
    .action(async (key: string, flags: TrustCommandFlags) => {
      const publicKey = await readKeyArgument(key);
      const file = trustFileOf(flags, context);
      await listKeys(file);
      const added = await addTrustedKey(file, { public_key: publicKey, name: flags.name ?? key, added_at: new Date().toISOString(), note: 'added with gw audit trust add' });
      context.stdout.write(`${added ? 'trusted' : 'already trusted'}: ${fingerprintOf(publicKey)} (${file})\n`);
    });
  withFileOptions(trust.command('list').description('List the trusted keys'))
    .action(async (flags: TrustCommandFlags) => {
      const file = trustFileOf(flags, context);
      const keys = await listKeys(file);
      if (keys === null) {
        context.stdout.write(`no trust file at ${file} yet (gw serve seeds it with its own key at start)\n`);
        return;
      }
      for (const key of keys) context.stdout.write(`${fingerprintOf(key.public_key)}  ${key.public_key}  ${key.name}  ${key.added_at}  ${key.note}\n`);
    });
  withFileOptions(trust.command('remove <fingerprint-or-key>').description('Stop trusting a key (its chains then fail verification)'))
    .action(async (key: string, flags: TrustCommandFlags) => {
      const file = trustFileOf(flags, context);
      await listKeys(file);
      const removed = await removeTrustedKey(file, key);
      if (removed === null) throw new CliExit(1, `no trusted key ${key} in ${file}`);
      context.stdout.write(`removed: ${fingerprintOf(removed.public_key)} ${removed.name}\n`);
    });
}
