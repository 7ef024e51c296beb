// The keys `gw audit verify` trusts: each --key (an audit.pub file, or the key itself) and the
// operator's trust file (--trust-file, default $GW_HOME/audit-trust.json). A home that has no
// trust file yet (gw serve seeds it at its next start) trusts its own audit.pub, and verify
// says so: that fallback is what an upgraded home had before.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PUBLIC_KEY_FILE } from '../audit/signing-key.js';
import { defaultTrustFile, fingerprintOf, isPublicKeyText, readTrustFile } from '../audit/trust-file.js';
import { CliExit } from './cli-context.js';
import { errorMessage } from '../error-message.js';

export interface TrustFlags {
  key?: string[];
  trustFile?: string;
}

export interface TrustedKeys {
  /** Every trusted key. */
  keys: string[];
  /** The keys named with --key, by what was typed: each must sign a chain. */
  named: Array<{ source: string; key: string }>;
  notes: string[];
}

/** An audit.pub file's key, or the key typed as is. */
export async function readKeyArgument(value: string): Promise<string> {
  if (isPublicKeyText(value)) return value;
  let text: string;
  try {
    text = (await readFile(value, 'utf8')).trim();
  } catch (error) {
    throw new CliExit(2, `cannot read the key ${value}: ${errorMessage(error)}`);
  }
  if (!isPublicKeyText(text)) throw new CliExit(2, `${value} does not hold an audit public key (the 43 characters of an audit.pub)`);
  return text;
}

export async function resolveTrustedKeys(home: string, flags: TrustFlags): Promise<TrustedKeys> {
  const named = await Promise.all((flags.key ?? []).map(async (source) => ({ source, key: await readKeyArgument(source) })));
  const file = flags.trustFile === undefined ? defaultTrustFile(home) : path.resolve(flags.trustFile);
  let listed;
  try {
    listed = await readTrustFile(file);
  } catch (error) {
    throw new CliExit(2, `cannot read the audit trust file: ${errorMessage(error)}`);
  }
  const notes: string[] = [];
  const keys = named.map((entry) => entry.key);
  if (listed !== null) keys.push(...listed.map((entry) => entry.public_key));
  else if (flags.trustFile !== undefined) throw new CliExit(2, `no audit trust file at ${file}`);
  else {
    const own = (await readFile(path.join(home, PUBLIC_KEY_FILE), 'utf8').catch(() => '')).trim();
    if (isPublicKeyText(own)) {
      keys.push(own);
      notes.push(`no audit trust file at ${file} yet (gw serve seeds it at its next start): trusting this home's audit.pub (${fingerprintOf(own)})`);
    }
  }
  return { keys: [...new Set(keys)], named, notes };
}
