// gw audit verify: exit 0 intact, 1 broken (names the first bad record and why),
// 2 unreadable or bad usage (DESIGN.md, "Audit chain").
import path from 'node:path';
import type { Command } from 'commander';
import { AUDIT_LOG_FILE } from '../../audit/audit-trail.js';
import { verifyFile } from '../../audit/verify-file.js';
import type { VerifyResult } from '../../audit/verify.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { registerAuditStoreCommands, runStoreVerify } from './audit-store.js';

interface VerifyFlags {
  file?: string;
  store?: string;
  key?: string[];
  json?: boolean;
  home?: string;
}

function describeResult(result: VerifyResult): string {
  if (result.ok) {
    const head = result.head ? `head seq ${result.head.seq} hash ${result.head.hash.slice(0, 8)}…` : 'no head (empty log)';
    return `audit trail intact: ${result.records} records, ${head}`;
  }
  const bad = result.firstBad;
  const seq = bad?.seq === undefined ? '' : ` (seq ${bad.seq})`;
  // Line 0 is the checkpoint itself, not a line of the log.
  const where = bad && bad.line > 0 ? ` at line ${bad.line}${seq}` : '';
  return `audit trail BROKEN${where}: ${bad?.reason ?? 'unknown'}`;
}

export async function runAuditVerify(flags: VerifyFlags, context: CliContext): Promise<void> {
  if (flags.file === undefined && resolveStoreUrl(flags.store, context.env) !== undefined) return runStoreVerify(flags, context);
  const file = flags.file ? path.resolve(flags.file) : path.join(context.home(flags.home), 'audit', AUDIT_LOG_FILE);
  let result: VerifyResult;
  try {
    // The home's own trail must have its checkpoint and key; a file named with --file may be an export.
    result = await verifyFile(file, { requireSeal: flags.file === undefined });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' && flags.file === undefined;
    const reason = missing
      ? `no audit trail yet in ${path.dirname(file)}: gw serve writes one there (or name a file with --file)`
      : `cannot read ${file}: ${(error as Error).message}`;
    if (flags.json) {
      context.stdout.write(`${JSON.stringify({ ok: false, file, error: reason })}\n`);
      throw new CliExit(2, '');
    }
    throw new CliExit(2, reason);
  }
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ file, ...result })}\n`);
  } else {
    for (const warning of result.warnings) context.stderr.write(`warning: ${warning}\n`);
    context.stdout.write(`${describeResult(result)}\n`);
  }
  if (!result.ok) throw new CliExit(1, '');
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
    .option('--key <file...>', 'with --store: more audit.key files (other instances\' homes) to check their checkpoints\' HMAC')
    .action(async (flags: VerifyFlags) => runAuditVerify(flags, context));
  registerAuditStoreCommands(audit, context);
}
