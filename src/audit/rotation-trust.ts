// Trust across `gw audit rotate`, pure: a set of verified chains (a home's closed chains and its
// live one, or every chain of a PostgreSQL store) is checked as a whole. A key is trusted when the
// operator trusts it (--key, the trust file) or when a chain signed by a trusted key was closed on
// purpose (closed checkpoint at its `audit.chain_closed` record) naming it: transitively, so a
// key rotated twice is still reached. A chain that opens by naming a closed chain must name one
// that is here, closed, at its closing head, and be signed by the key that close introduced.
import { fingerprintOf } from './key-fingerprint.js';
import type { VerifyResult } from './verify.js';

export interface ChainToTrust {
  /** How the chain is called in findings. */
  name: string;
  result: VerifyResult;
}

export interface RotationTrustOptions {
  trustedKeys: readonly string[];
  /** Report an untrusted chain (UNTRUSTED) instead of failing it. */
  allowUntrusted?: boolean;
}

/** Keys introduced by a rotation (new key → the key that introduced it), to a fixpoint. */
export function keysIntroducedByRotation(chains: readonly ChainToTrust[], trustedKeys: readonly string[]): Map<string, string> {
  const trusted = new Set(trustedKeys);
  const introduced = new Map<string, string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const { result } of chains) {
      const next = result.closing?.next_public_key;
      if (!result.ok || result.closed !== true || next === undefined || result.signedBy === undefined) continue;
      if (!trusted.has(result.signedBy) || trusted.has(next)) continue;
      trusted.add(next);
      introduced.set(next, result.signedBy);
      changed = true;
    }
  }
  return introduced;
}

function fail(result: VerifyResult, seq: number, reason: string): void {
  if (!result.ok) return;
  result.ok = false;
  result.firstBad = { line: seq, seq, reason };
}

/** Why a chain's opening record does not lead back to the chain it names, or undefined. */
function openingProblem(chain: ChainToTrust, byTrail: ReadonlyMap<string, ChainToTrust>): string | undefined {
  const opening = chain.result.opening;
  if (opening === undefined) return undefined;
  const short = opening.previous_trail.slice(0, 12);
  const previous = byTrail.get(opening.previous_trail);
  if (previous === undefined) return `record 1 names the closed chain ${short}…, which is not here (deleted, or the new chain is not this trail's)`;
  const { result } = previous;
  if (result.closed !== true || result.closing === undefined) return `record 1 names the chain ${previous.name}, which was not closed (no closed checkpoint at an audit.chain_closed record)`;
  if (result.head?.seq !== opening.previous_seq || result.head.hash !== opening.previous_hash) return `record 1 names a head of ${previous.name} that is not its closing record (seq ${opening.previous_seq})`;
  if (result.signedBy !== opening.previous_public_key) return `record 1 names ${previous.name} under key ${fingerprintOf(opening.previous_public_key)}, but that chain is signed by another key`;
  if (chain.result.signedBy !== undefined && chain.result.signedBy !== result.closing.next_public_key) {
    return `signed by key ${fingerprintOf(chain.result.signedBy)}, not by ${fingerprintOf(result.closing.next_public_key)}, the key ${previous.name}'s closing record introduced (the new chain was replaced)`;
  }
  return undefined;
}

function untrustedReason(key: string): string {
  return `signed by key ${fingerprintOf(key)}, which is not trusted (not in the audit trust file nor given with --key, nor introduced by a rotation from a trusted key): re-signed by someone else, or a key to add with gw audit trust add`;
}

/**
 * Checks the links between chains and decides each chain's trust, in place: a broken link or an
 * untrusted signer makes the chain's result fail (or, with allowUntrusted, UNTRUSTED); a key
 * trusted through a rotation sets `trustedByRotationFrom` to the introducing key's fingerprint.
 */
export function applyRotationTrust(chains: readonly ChainToTrust[], options: RotationTrustOptions): void {
  const byTrail = new Map<string, ChainToTrust>();
  for (const chain of chains) if (chain.result.trail !== undefined) byTrail.set(chain.result.trail, chain);
  for (const chain of chains) {
    const problem = openingProblem(chain, byTrail);
    if (problem !== undefined) fail(chain.result, 1, problem);
  }
  const introduced = keysIntroducedByRotation(chains, options.trustedKeys);
  for (const { result } of chains) {
    const key = result.signedBy;
    if (!result.ok || key === undefined || options.trustedKeys.includes(key)) continue;
    const from = introduced.get(key);
    if (from !== undefined) {
      result.trustedByRotationFrom = fingerprintOf(from);
      continue;
    }
    if (!options.allowUntrusted) {
      fail(result, result.head?.seq ?? 0, untrustedReason(key));
      continue;
    }
    result.untrusted = true;
    result.warnings.push(`UNTRUSTED: ${untrustedReason(key)}`);
  }
}

/**
 * A closed chain must be followed by the chain that opens from it: one that no chain names lost
 * its successor (deleted or replaced), unless `underWay` names it (a rotation still opening it).
 */
export function checkClosedChainsFollowed(chains: readonly ChainToTrust[], underWay?: string): void {
  const named = new Set(chains.map((chain) => chain.result.opening?.previous_trail).filter((trail) => trail !== undefined));
  for (const { result } of chains) {
    if (!result.ok || result.closed !== true || result.trail === undefined || named.has(result.trail)) continue;
    if (result.trail === underWay) {
      result.warnings.push('a rotation from this chain is under way (audit-rotation.json): the next gw serve opens the next chain');
      continue;
    }
    fail(result, result.records + 1, 'no chain opens from this closed chain: the chain after it was deleted or replaced');
  }
}
