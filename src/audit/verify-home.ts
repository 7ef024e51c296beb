// Verifies every chain of a home's file trail: the closed ones in audit/chains/ (each against its
// closed checkpoint) and the live audit.jsonl, then the links and the trust across rotations
// (src/audit/rotation-trust.ts). A closed chain that no chain follows is a finding (the chain after
// it was deleted) unless a rotation journal says the next one is still being opened.
import path from 'node:path';
import { listClosedChains, readSignedCheckpoint } from './closed-chains.js';
import { applyRotationTrust, checkClosedChainsFollowed, type ChainToTrust } from './rotation-trust.js';
import { readRotationJournal } from './rotation-journal.js';
import { verifyFile } from './verify-file.js';
import type { VerifyResult } from './verify.js';
import { errorCode } from '../error-code.js';

export interface HomeChain extends ChainToTrust {
  file: string;
  /** audit.jsonl: the chain gw writes to. */
  live: boolean;
}

export interface HomeTrustOptions {
  trustedKeys: readonly string[];
  allowUntrusted?: boolean;
  /** Seqs whose hashes each chain's result returns (a witness's checkpoints). */
  collectSeqs?: ReadonlySet<number>;
}

async function verifyClosed(home: string, auditDir: string, collectSeqs: ReadonlySet<number> | undefined): Promise<HomeChain[]> {
  const chains: HomeChain[] = [];
  for (const files of await listClosedChains(auditDir)) {
    const checkpoint = await readSignedCheckpoint(files.checkpoint);
    const result = await verifyFile(files.log, {
      requireSeal: true, checkpointPath: files.checkpoint, keyPath: path.join(home, 'audit.key'),
      ...(checkpoint ? { publicKey: checkpoint.public_key } : {}), ...(collectSeqs ? { collectSeqs } : {}),
    }).catch((error: NodeJS.ErrnoException): VerifyResult => ({
      ok: false, records: 0, head: null, warnings: [],
      firstBad: { line: 0, reason: error.code === 'ENOENT' ? `${files.log} is missing: the closed chain's records were deleted` : error.message },
    }));
    if (result.ok && result.closed !== true) {
      result.ok = false;
      result.firstBad = { line: result.records + 1, reason: 'a chain in audit/chains/ without a closed checkpoint at its closing record (not closed by gw audit rotate)' };
    }
    chains.push({ name: `closed chain ${files.trail.slice(0, 12)}…`, file: files.log, live: false, result });
  }
  return chains;
}

/** Chains in trail order: each closed chain before the one that opens from it, the live one last. */
function inOrder(chains: HomeChain[]): HomeChain[] {
  const byTrail = new Map(chains.filter((chain) => chain.result.trail).map((chain) => [chain.result.trail!, chain]));
  const ordered: HomeChain[] = [];
  for (let chain = chains.find((entry) => entry.live); chain && !ordered.includes(chain);) {
    ordered.unshift(chain);
    const previous = chain.result.opening?.previous_trail;
    chain = previous === undefined ? undefined : byTrail.get(previous);
  }
  return [...chains.filter((chain) => !ordered.includes(chain)), ...ordered];
}

/**
 * Every chain of the home, verified and in order. The live chain is absent when its log does not
 * exist (a rotation between moving the closed chain and opening the next); a home with no chain at
 * all throws the live log's ENOENT, as verifyFile does.
 */
export async function verifyHomeChains(home: string, options: HomeTrustOptions): Promise<HomeChain[]> {
  const auditDir = path.join(home, 'audit');
  const chains = await verifyClosed(home, auditDir, options.collectSeqs);
  const liveFile = path.join(auditDir, 'audit.jsonl');
  try {
    const result = await verifyFile(liveFile, { requireSeal: true, ...(options.collectSeqs ? { collectSeqs: options.collectSeqs } : {}) });
    chains.push({ name: 'live chain (audit.jsonl)', file: liveFile, live: true, result });
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' || chains.length === 0) throw error;
  }
  const journal = await readRotationJournal(home).catch(() => null);
  checkClosedChainsFollowed(chains, journal?.chain);
  applyRotationTrust(chains, options);
  return inOrder(chains);
}
