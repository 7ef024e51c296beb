// gw audit verify --ocsf FILE --key PUB: an OCSF export checked with nothing but the file and
// the public keys given (no home, no trust file, no database). Exit 0 verified, 1 an event
// failed (named), 2 unreadable or bad usage.
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { verifyOcsfLines, type OcsfVerdict } from '../../audit/ocsf/verify-ocsf.js';
import { fingerprintOf } from '../../audit/trust-file.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { readKeyArgument } from '../trusted-keys.js';
import { errorMessage } from '../../error-message.js';

export interface OcsfVerifyFlags {
  ocsf?: string;
  file?: string;
  store?: string;
  witness?: string;
  trustFile?: string;
  allowUntrusted?: boolean;
  key?: string[];
  witnessKey?: string[];
  window?: boolean;
  json?: boolean;
}

function describe(verdict: OcsfVerdict, file: string): string {
  if (verdict.ok) {
    const range = verdict.head ? `seq ${verdict.first ?? 1} to ${verdict.head.seq}` : 'no events';
    const cosigned = verdict.cosigners.length > 0 ? `, cosigned by witness ${verdict.cosigners.join(', ')}` : '';
    const chains = verdict.chains.length > 1 ? `${verdict.chains.length} chains joined by gw audit rotate (${verdict.chains.join(' → ')}), the last` : `chain ${verdict.chain}`;
    return `OCSF export intact: ${verdict.events} events of ${chains}, ${range}, signed by ${verdict.signers.join(', ')}${cosigned}`;
  }
  const bad = verdict.firstBad!;
  const name = bad.uid ? `event ${bad.uid} (line ${bad.line})` : `line ${bad.line}`;
  return `OCSF export ${file} BROKEN at ${name}: ${bad.reason}`;
}

export async function runOcsfVerify(flags: OcsfVerifyFlags, context: CliContext): Promise<void> {
  const file = path.resolve(flags.ocsf!);
  const foreign = [['--file', flags.file], ['--store', flags.store], ['--witness', flags.witness], ['--trust-file', flags.trustFile], ['--allow-untrusted', flags.allowUntrusted]].filter(([, value]) => value !== undefined).map(([name]) => name);
  if (foreign.length > 0) throw new CliExit(2, `--ocsf verifies the file against the --key public keys alone: ${foreign.join(', ')} cannot be used with it`);
  if (!flags.key || flags.key.length === 0) throw new CliExit(2, 'name the public key(s) the export must be signed by with --key (an audit.pub file or the key): an export verifies against the keys you trust, never against the keys it names');
  const keys = await Promise.all(flags.key.map((source) => readKeyArgument(source)));
  // A witness.pub file (gw audit witness-key prints the key) or the key itself, as --key takes.
  const witnessKeys = await Promise.all((flags.witnessKey ?? []).map((source) => readKeyArgument(source)));
  try {
    await access(file);
  } catch (error) {
    throw new CliExit(2, `cannot read ${file}: ${errorMessage(error)}`);
  }
  const lines = readline.createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  const verdict = await verifyOcsfLines(lines, { trustedKeys: keys, window: flags.window === true, witnessKeys });
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ file, ...verdict })}\n`);
  } else {
    for (const note of verdict.notes) context.stderr.write(`note: ${note}\n`);
    context.stdout.write(`${describe(verdict, file)}\n`);
    if (verdict.ok) context.stderr.write(`note: trusted keys: ${keys.map((key) => fingerprintOf(key)).join(', ')}${witnessKeys.length > 0 ? `; trusted witness keys: ${witnessKeys.map((key) => fingerprintOf(key)).join(', ')}` : ''}\n`);
  }
  if (!verdict.ok) throw new CliExit(1, '');
}
