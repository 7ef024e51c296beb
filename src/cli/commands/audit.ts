// gw audit verify: exit 0 intact, 1 broken (names the first bad record and why) or at
// odds with its witness, 2 unreadable or bad usage (DESIGN.md, "Audit chain").
import path from 'node:path';
import type { Command } from 'commander';
import { AUDIT_LOG_FILE } from '../../audit/audit-trail.js';
import { readFile } from 'node:fs/promises';
import { compareWithWitness, type WitnessComparison, type WitnessedCheckpoint } from '../../audit/compare-witness.js';
import { defaultPublicKeyPath, verifyFile } from '../../audit/verify-file.js';
import type { VerifyResult } from '../../audit/verify.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { registerAuditStoreCommands, runStoreVerify } from './audit-store.js';
import { readWitness } from '../read-witness.js';
import { resolveTrustedKeys } from '../trusted-keys.js';
import { fingerprintOf } from '../../audit/trust-file.js';
import { registerAuditTrustCommand } from './audit-trust.js';
import { registerAuditExportCommand } from './audit-export.js';
import { runOcsfVerify } from './audit-verify-ocsf.js';

interface VerifyFlags {
  file?: string;
  store?: string;
  key?: string[];
  json?: boolean;
  home?: string;
  witness?: string;
  trustFile?: string;
  allowUntrusted?: boolean;
  ocsf?: string;
  window?: boolean;
}

function describeResult(result: VerifyResult): string {
  if (result.ok) {
    const head = result.head ? `head seq ${result.head.seq} hash ${result.head.hash.slice(0, 8)}…` : 'no head (empty log)';
    const untrusted = result.untrusted && result.signedBy !== undefined ? ` but UNTRUSTED (signed by key ${fingerprintOf(result.signedBy)})` : '';
    return `audit trail intact${untrusted}: ${result.records} records, ${head}`;
  }
  const bad = result.firstBad;
  const seq = bad?.seq === undefined ? '' : ` (seq ${bad.seq})`;
  // Line 0 is the checkpoint itself, not a line of the log.
  const where = bad && bad.line > 0 ? ` at line ${bad.line}${seq}` : '';
  return `audit trail BROKEN${where}: ${bad?.reason ?? 'unknown'}`;
}

function describeWitness(source: string, comparison: WitnessComparison): string[] {
  const lines = comparison.findings.map((finding) => `witness ${source}: MISMATCH: ${finding}`);
  if (comparison.ok) lines.push(`witness ${source}: consistent (witnessed up to seq ${comparison.witnessedSeq ?? 0})`);
  return lines;
}

async function readPublicKey(file: string): Promise<string | undefined> {
  try {
    return (await readFile(defaultPublicKeyPath(file), 'utf8')).trim();
  } catch {
    return undefined; // an export without its home: compared without the key (verify warns)
  }
}

function verifyReadError(error: unknown, file: string, missing: boolean, flags: VerifyFlags, context: CliContext): CliExit {
  const reason = missing
    ? `no audit trail yet in ${path.dirname(file)}: gw serve writes one there (or name a file with --file)`
    : `cannot read ${file}: ${(error as Error).message}`;
  if (!flags.json) return new CliExit(2, reason);
  context.stdout.write(`${JSON.stringify({ ok: false, file, error: reason })}\n`);
  return new CliExit(2, '');
}

async function runAuditVerify(flags: VerifyFlags, context: CliContext): Promise<void> {
  // An OCSF export is checked on its own: the file and the --key public keys, nothing of a home or store.
  if (flags.ocsf !== undefined) return runOcsfVerify(flags, context);
  // With a store, every instance's chain is checked there (and against the witness, when one is named).
  if (flags.file === undefined && resolveStoreUrl(flags.store, context.env) !== undefined) return runStoreVerify(flags, context);
  const home = context.home(flags.home);
  const file = flags.file ? path.resolve(flags.file) : path.join(home, 'audit', AUDIT_LOG_FILE);
  const trust = await resolveTrustedKeys(home, flags);
  // Read first: the local records at the witnessed seqs are collected while verifying.
  const witnessed: WitnessedCheckpoint[] | undefined = flags.witness === undefined ? undefined : await readWitness(flags.witness, home, context.env);
  let result: VerifyResult;
  try {
    // The home's own trail must have its checkpoint and key; a file named with --file may be an export.
    result = await verifyFile(file, {
      requireSeal: flags.file === undefined, trustedKeys: trust.keys, allowUntrusted: flags.allowUntrusted === true,
      ...(witnessed ? { collectSeqs: new Set(witnessed.map((entry) => entry.seq)) } : {}),
    });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' && flags.file === undefined;
    // A trail the witness has seen is not "not yet written": it was deleted, and that is a finding (exit 1).
    if (missing && witnessed && witnessed.length > 0) result = { ok: true, records: 0, head: null, warnings: [`${file} does not exist`] };
    else throw verifyReadError(error, file, missing, flags, context);
  }
  let comparison: WitnessComparison | undefined;
  if (witnessed) {
    const publicKey = await readPublicKey(file);
    comparison = compareWithWitness({ trail: result.trail, head: result.head, hashesAt: result.hashesAt ?? new Map(), ...(publicKey ? { publicKey } : {}) }, witnessed);
  }
  const { hashesAt: _collected, ...shown } = result;
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ file, ...shown, ...(comparison ? { witness: { source: flags.witness, ...comparison } } : {}) })}\n`);
  } else {
    for (const note of trust.notes) context.stderr.write(`note: ${note}\n`);
    for (const warning of result.warnings) context.stderr.write(`warning: ${warning}\n`);
    context.stdout.write(`${describeResult(result)}\n`);
    if (comparison) {
      for (const note of comparison.notes) context.stderr.write(`note: ${note}\n`);
      for (const line of describeWitness(flags.witness!, comparison)) context.stdout.write(`${line}\n`);
    }
  }
  if (!result.ok || (comparison && !comparison.ok)) throw new CliExit(1, '');
}

export function registerAuditCommand(program: Command, context: CliContext): void {
  const audit = program.command('audit').description('Inspect the hash-chained audit trail');
  audit
    .command('verify')
    .description('Check the audit trail for edits, inserts, deletes, reorders and a cut tail')
    .option('--file <path>', 'the trail to verify (default: <home>/audit/audit.jsonl)')
    .option('--json', 'print one JSON object')
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .option('--store <url>', 'verify every chain of the PostgreSQL trail instead (GW_DATABASE_URL)')
    .option('--key <file...>', 'trust these audit.pub files (or keys) besides the trust file; with --store each must sign a chain')
    .option('--trust-file <path>', 'the operator\'s trust file (default: <home>/audit-trust.json; gw audit trust manages it)')
    .option('--allow-untrusted', 'report a chain signed by an untrusted key as UNTRUSTED instead of failing (for looking around)')
    .option('--ocsf <file>', 'verify an OCSF export (gw audit export --format ocsf) offline against the --key public keys only')
    .option('--window', 'with --ocsf: the file may start mid-chain (an export made with --since)')
    .option('--witness <hub-url|file>', 'also compare the trail (with --store: every chain) with the checkpoints a witness kept (a gw hub, with this home\'s login, or a witness file)')
    .action(async (flags: VerifyFlags) => runAuditVerify(flags, context));
  registerAuditExportCommand(audit, context);
  registerAuditStoreCommands(audit, context);
  registerAuditTrustCommand(audit, context);
}
