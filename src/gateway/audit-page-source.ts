// The console's Audit page over this gw's own trail (src/admin/audit-page.ts names the shapes):
// its state (writable or why not, the newest durable record, where it lives, its last
// checkpoint, how far its witnesses have it) and a verification on demand, by the verifier
// `gw audit verify` runs: the file with its checkpoint and key, or every PostgreSQL chain
// with this instance's key pinned. One verification at a time: a second click shares the run.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultTrustFile, readTrustFile } from '../audit/trust-file.js';
import { AUDIT_LOG_FILE, type AuditTrail } from '../audit/audit-trail.js';
import { PUBLIC_KEY_FILE } from '../audit/signing-key.js';
import { verifyHomeChains } from '../audit/verify-home.js';
import type { VerifyResult } from '../audit/verify.js';
import type { WitnessHealth } from '../audit/witness-pusher.js';
import type { AuditPage, TrailVerdict } from '../admin/audit-page.js';
import type { SharedStores } from './shared-stores.js';

export interface AuditPageInput {
  audit: AuditTrail;
  home: string;
  /** The PostgreSQL trail, when the instance writes there. */
  shared: SharedStores | null;
  witnessHealth(): WitnessHealth | null;
}

export function createAuditPageSource(input: AuditPageInput): Omit<AuditPage, 'witnessed'> {
  const file = path.join(input.home, 'audit', AUDIT_LOG_FILE);
  let running: Promise<TrailVerdict> | null = null;
  return {
    state: () => describeAuditState(input, file),
    verify() {
      running ??= verifyNow(input, file).finally(() => { running = null; });
      return running;
    },
  };
}

function describeAuditState(input: AuditPageInput, file: string): Record<string, unknown> {
  const status = input.audit.status();
  const chainId = input.shared?.audit.chainId;
  const where = chainId ? { store: 'postgres', chain: chainId } : { store: 'file', file };
  let checkpoint: unknown = null;
  if (!chainId) {
    try {
      checkpoint = JSON.parse(readFileSync(path.join(path.dirname(file), 'checkpoint.json'), 'utf8'));
    } catch { /* none yet */ }
  }
  return { ...where, writable: status.ok, ...(status.ok ? { head_seq: status.seq } : { problem: status.reason }), checkpoint, witnesses: input.witnessHealth()?.witnesses ?? [] };
}

async function verifyNow(input: AuditPageInput, file: string): Promise<TrailVerdict> {
  const started = Date.now();
  let chains: TrailVerdict['chains'];
  if (input.shared) {
    const verdicts = await input.shared.verifyChains({ trustedKeys: await trustedKeysOf(input.home) });
    chains = verdicts.map((verdict) => chainOf(`chain ${verdict.chainId} (${verdict.instance}, from ${verdict.startedAt})`, verdict.result));
  } else {
    // Every chain of the home: the closed ones gw audit rotate left in audit/chains/, and the live one.
    chains = await verifyHomeChains(input.home, { trustedKeys: await trustedKeysOf(input.home) })
      .then((verdicts) => verdicts.map((verdict) => chainOf(verdict.live ? file : verdict.file, verdict.result)))
      .catch((error: NodeJS.ErrnoException) => [chainOf(file, {
        ok: false, records: 0, head: null, warnings: [], firstBad: { line: 0, reason: error.code === 'ENOENT' ? 'no trail yet' : `unreadable: ${error.message}` },
      })]);
  }
  return { ok: chains.every((chain) => chain.ok), checked_at: new Date().toISOString(), took_ms: Date.now() - started, chains };
}

/** The trust file's keys; a home without one yet trusts its own audit.pub (as gw audit verify does). */
async function trustedKeysOf(home: string): Promise<string[]> {
  const listed = await readTrustFile(defaultTrustFile(home)).catch(() => []);
  if (listed !== null) return listed.map((entry) => entry.public_key);
  const own = (await readFile(path.join(home, PUBLIC_KEY_FILE), 'utf8').catch(() => '')).trim();
  return own ? [own] : [];
}

function chainOf(name: string, result: VerifyResult): TrailVerdict['chains'][number] {
  const bad = result.firstBad;
  return {
    name, ok: result.ok, records: result.records, warnings: result.warnings,
    ...(result.ok ? {} : { problem: `${bad?.seq !== undefined ? `at seq ${bad.seq}: ` : bad?.line ? `at line ${bad.line}: ` : ''}${bad?.reason ?? 'unknown'}` }),
  };
}
