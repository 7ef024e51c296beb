// gw audit verify: exit 0 intact, 1 broken (names the first bad record and why) or at
// odds with its witness, 2 unreadable or bad usage (DESIGN.md, "Audit chain").
import path from 'node:path';
import type { Command } from 'commander';
import { AUDIT_LOG_FILE } from '../../audit/audit-trail.js';
import { readFile } from 'node:fs/promises';
import { compareInventory, compareWithWitness, type LocalTrail, type WitnessComparison, type WitnessedCheckpoint } from '../../audit/compare-witness.js';
import { readInstanceId } from '../../audit/instance-id.js';
import { readChainOpening } from '../../audit/read-chain-opening.js';
import { defaultPublicKeyPath, verifyFile } from '../../audit/verify-file.js';
import type { VerifyResult } from '../../audit/verify.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { registerAuditStoreCommands, runStoreVerify } from './audit-store.js';
import { readWitness } from '../read-witness.js';
import { resolveTrustedKeys, type TrustedKeys } from '../trusted-keys.js';
import { fingerprintOf } from '../../audit/trust-file.js';
import { registerAuditTrustCommand } from './audit-trust.js';
import { registerAuditExportCommand } from './audit-export.js';
import { runOcsfVerify } from './audit-verify-ocsf.js';
import { registerAuditWitnessKeyCommand } from './audit-witness-key.js';
import { verifyHomeChains, type HomeChain } from '../../audit/verify-home.js';
import { registerAuditRotateCommand } from './audit-rotate.js';
import { registerAuditShowCommand } from './audit-show.js';
import { errorCode } from '../../error-code.js';
import { errorMessage } from '../../error-message.js';
import { runHubVerify } from './audit-verify-hub.js';

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
  witnessKey?: string[];
  hub?: string;
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

function describeChain(chain: HomeChain): string {
  const { result } = chain;
  if (!result.ok) return `${chain.name}: ${describeResult(result).replace('audit trail ', '')}`;
  const signer = result.signedBy === undefined ? '' : `, signed by ${fingerprintOf(result.signedBy)}`;
  const rotation = result.trustedByRotationFrom === undefined ? '' : ` (trusted by rotation from ${result.trustedByRotationFrom})`;
  return `${chain.name}: intact${result.untrusted ? ' but UNTRUSTED' : ''}, ${result.records} records${signer}${rotation}${result.closed ? ', closed' : ''}`;
}

/** The home's trail: every closed chain and the live one; one chain alone reads as before rotations existed. */
async function verifyHome(home: string, file: string, trust: { keys: string[] }, flags: VerifyFlags, collectSeqs: ReadonlySet<number> | undefined): Promise<{ result: VerifyResult; chains: HomeChain[] }> {
  const chains = await verifyHomeChains(home, { trustedKeys: trust.keys, allowUntrusted: flags.allowUntrusted === true, ...(collectSeqs ? { collectSeqs } : {}) });
  const live = chains.find((chain) => chain.live)?.result ?? { ok: true, records: 0, head: null, warnings: [`${file} does not exist yet (a rotation under way)`] };
  const broken = chains.find((chain) => !chain.result.ok);
  const result: VerifyResult = broken === undefined ? live : { ...live, ok: false, ...(broken.result.firstBad ? { firstBad: broken.result.firstBad } : {}) };
  return { result, chains };
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

/**
 * The trail as the witness comparison reads it. The home's instance id (when verifying the
 * home's own trail) makes the witness's other chains of this sender count: missing, or
 * replaced under a new key without a rotation.
 */
async function localTrailOf(file: string, result: VerifyResult, home: string | undefined, namedKeys: TrustedKeys['named']): Promise<LocalTrail> {
  const [publicKey, instance, opening] = await Promise.all([readPublicKey(file), home ? readInstanceId(home) : undefined, readChainOpening(file)]);
  return {
    trail: result.trail, head: result.head, hashesAt: result.hashesAt ?? new Map(), namedKeys,
    ...(publicKey ? { publicKey } : {}), ...(instance ? { instance } : {}), ...(opening ? { opening } : {}),
  };
}

function verifyReadError(error: unknown, file: string, missing: boolean, flags: VerifyFlags, context: CliContext): CliExit {
  const reason = missing
    ? `no audit trail yet in ${path.dirname(file)}: gw serve writes one there (or name a file with --file)`
    : `cannot read ${file}: ${errorMessage(error)}`;
  if (!flags.json) return new CliExit(2, reason);
  context.stdout.write(`${JSON.stringify({ ok: false, file, error: reason })}\n`);
  return new CliExit(2, '');
}

async function runAuditVerify(flags: VerifyFlags, context: CliContext): Promise<void> {
  // An OCSF export is checked on its own: the file and the --key public keys, nothing of a home or store.
  if (flags.ocsf !== undefined) return runOcsfVerify(flags, context);
  // Off the hub: the hub verifies its own trail for an admin token (any role).
  if (flags.hub !== undefined) return runHubVerify(flags.hub, flags, context);
  if (flags.witnessKey !== undefined) throw new CliExit(2, '--witness-key checks the witnesses\' cosignatures in an OCSF export: use it with --ocsf FILE');
  // With a store, every instance's chain is checked there (and against the witness, when one is named).
  if (flags.file === undefined && resolveStoreUrl(flags.store, context.env) !== undefined) return runStoreVerify(flags, context);
  const home = context.home(flags.home);
  const file = flags.file ? path.resolve(flags.file) : path.join(home, 'audit', AUDIT_LOG_FILE);
  const trust = await resolveTrustedKeys(home, flags);
  // Read first: the local records at the witnessed seqs are collected while verifying.
  const witnessed: WitnessedCheckpoint[] | undefined = flags.witness === undefined ? undefined : await readWitness(flags.witness, home, context.env);
  let result: VerifyResult;
  let chains: HomeChain[] = [];
  const collectSeqs = witnessed ? new Set(witnessed.map((entry) => entry.seq)) : undefined;
  try {
    // The home's own trail must have its checkpoint and key (and its closed chains, after gw audit rotate); a file named with --file may be an export.
    if (flags.file === undefined) ({ result, chains } = await verifyHome(home, file, trust, flags, collectSeqs));
    else result = await verifyFile(file, { requireSeal: false, trustedKeys: trust.keys, allowUntrusted: flags.allowUntrusted === true, ...(collectSeqs ? { collectSeqs } : {}) });
  } catch (error) {
    const missing = errorCode(error) === 'ENOENT' && flags.file === undefined;
    // A trail the witness has seen is not "not yet written": it was deleted, and that is a finding (exit 1).
    if (missing && witnessed && witnessed.length > 0) result = { ok: true, records: 0, head: null, warnings: [`${file} does not exist`] };
    else throw verifyReadError(error, file, missing, flags, context);
  }
  let comparison: WitnessComparison | undefined;
  const rotated = chains.length > 1 || chains.some((chain) => !chain.live);
  if (witnessed && rotated) {
    // After a rotation the witness holds several chains of this home: each must be here, whole.
    comparison = compareInventory(chains.map((chain) => ({
      name: chain.name, head: chain.result.head, hashesAt: chain.result.hashesAt ?? new Map(),
      ...(chain.result.trail ? { trail: chain.result.trail } : {}), ...(chain.result.signedBy ? { publicKey: chain.result.signedBy } : {}),
    })), witnessed);
  } else if (witnessed) {
    comparison = compareWithWitness(await localTrailOf(file, result, flags.file === undefined ? home : undefined, trust.named), witnessed);
  }
  const { hashesAt: _collected, ...shown } = result;
  if (flags.json) {
    const perChain = rotated ? { chains: chains.map(({ result: { hashesAt: _hashes, ...chainResult }, ...chain }) => ({ ...chain, result: chainResult })) } : {};
    context.stdout.write(`${JSON.stringify({ file, ...shown, ...perChain, ...(comparison ? { witness: { source: flags.witness, ...comparison } } : {}) })}\n`);
  } else if (rotated) {
    for (const note of trust.notes) context.stderr.write(`note: ${note}\n`);
    for (const chain of chains) for (const warning of chain.result.warnings) context.stderr.write(`warning: ${chain.name}: ${warning}\n`);
    for (const chain of chains) context.stdout.write(`${describeChain(chain)}\n`);
    const broken = chains.filter((chain) => !chain.result.ok).length;
    context.stdout.write(`${chains.length} chains, ${broken === 0 ? 'all intact' : `${broken} BROKEN`}\n`);
  } else {
    for (const note of trust.notes) context.stderr.write(`note: ${note}\n`);
    for (const warning of result.warnings) context.stderr.write(`warning: ${warning}\n`);
    context.stdout.write(`${describeResult(result)}\n`);
  }
  if (comparison && !flags.json) {
    for (const note of comparison.notes) context.stderr.write(`note: ${note}\n`);
    for (const line of describeWitness(flags.witness!, comparison)) context.stdout.write(`${line}\n`);
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
    .option('--witness-key <file...>', 'with --ocsf: trust cosignatures by these witness keys (a witness.pub or the key; gw audit witness-key prints it); the last event must carry one')
    .option('--hub <url>', 'have this hub verify its own trail, over its admin API (admin token from gw login --admin or GW_ADMIN_TOKEN; a viewer may)')
    .option('--witness <hub-url|file>', 'also compare the trail (with --store: every chain) with the checkpoints a witness kept (a gw hub, with this home\'s login, or a witness file)')
    .action(async (flags: VerifyFlags) => runAuditVerify(flags, context));
  registerAuditExportCommand(audit, context);
  registerAuditStoreCommands(audit, context);
  registerAuditTrustCommand(audit, context);
  registerAuditWitnessKeyCommand(audit, context);
  registerAuditRotateCommand(audit, context);
  registerAuditShowCommand(audit, context);
}
