// Holds the local trail against what a witness kept, pure. A witnessed checkpoint
// {trail, seq, hash} is a point the local chain must pass through (record seq has that
// hash) and a floor it must reach; the first key the witness saw for a trail is pinned,
// so a trail re-chained under a new key, cut, or rolled back to an older state shows,
// even when its own checkpoint and key were rewritten to match (RFC 6962 §2.1.2, the
// consistency idea of Certificate Transparency, applied to one writer's trail).
import { isSignatureValid, type ChainHead, type SignedCheckpoint } from './checkpoint.js';
import type { WitnessedCheckpoint } from './witnessed-checkpoint.js';
import { chainsOf, openedAfter, replacedChains, replacedMessage, short, type ChainOpening, type WitnessedChain } from './witness-inventory.js';

export type { WitnessSender, WitnessedCheckpoint } from './witnessed-checkpoint.js';

export interface LocalTrail {
  /** Absent when the log is empty or record 1 did not verify. */
  trail?: string;
  /** The key of the local checkpoint (audit.pub). */
  publicKey?: string;
  head: ChainHead | null;
  /** Hashes of the local records at the witnessed seqs. */
  hashesAt: ReadonlyMap<number, string>;
  /** This home's instance id: the witness's other chains of this sender must be accounted for. */
  instance?: string;
  /** Record 1's data when it is `audit.chain_opened` (the chain a rotation closed). */
  opening?: ChainOpening;
  /** The keys named with --key: each must sign a chain. */
  namedKeys?: ReadonlyArray<{ source: string; key: string }>;
}

export interface WitnessComparison {
  ok: boolean;
  findings: string[];
  notes: string[];
  /** The newest seq the witness holds for this trail under its pinned key. */
  witnessedSeq: number | null;
}

/** Witnessed entries whose signature verifies; the others are counted in a note. */
function validEntries(witnessed: readonly WitnessedCheckpoint[], notes: string[]): WitnessedCheckpoint[] {
  const valid = witnessed.filter((entry) => isSignatureValid(entry));
  if (valid.length < witnessed.length) notes.push(`${witnessed.length - valid.length} witnessed checkpoint(s) with a bad signature were ignored`);
  return valid;
}

/** Checks each witnessed point of the trail under the pinned key against the local chain. */
function checkPoints(local: LocalTrail, pinned: SignedCheckpoint[], findings: string[]): number {
  const newest = pinned.reduce((best, entry) => (entry.seq > best.seq ? entry : best));
  const endSeq = local.head?.seq ?? 0;
  if (endSeq < newest.seq) {
    findings.push(`truncated or rolled back: the witness holds a checkpoint at seq ${newest.seq} (received ${(newest as WitnessedCheckpoint).received_at}), the local log ends at seq ${endSeq}`);
  }
  const diverged = pinned.filter((entry) => entry.seq <= endSeq && local.hashesAt.get(entry.seq) !== entry.hash).sort((a, b) => a.seq - b.seq)[0];
  if (diverged) findings.push(`rewritten: record ${diverged.seq} is not the one the witness saw (hash ${short(diverged.hash)}); the log was re-chained from there or before`);
  return newest.seq;
}

/**
 * The witness's other chains of this home's instance must be accounted for: closed by a
 * rotation (or named by this chain's opening record), else the file lost them (missing) or
 * they were replaced under a new key (a reinstall without gw audit rotate). Other senders'
 * chains are other machines: a note.
 */
function checkInstance(local: LocalTrail, chains: readonly WitnessedChain[], findings: string[], notes: string[]): void {
  for (const chain of chains.filter((candidate) => candidate.instance === local.instance && candidate.trail !== local.trail)) {
    if (chain.closed || openedAfter(local.opening, chain)) continue;
    const what = `this instance's chain ${short(chain.trail)} (key ${short(chain.publicKey)}, witnessed up to seq ${chain.newest.seq})`;
    if (local.trail === undefined) findings.push(`deleted: the local log is empty, but the witness holds ${what}`);
    else if (local.publicKey !== undefined && local.publicKey !== chain.publicKey) findings.push(replacedMessage(chain, local));
    else findings.push(`missing: the witness holds ${what}, which the local log no longer carries and no closing record ended`);
  }
  const others = chains.filter((chain) => chain.instance !== local.instance);
  if (others.length > 0) {
    const senders = new Set(others.map((chain) => chain.sender ?? chain.senderName)).size;
    notes.push(`the witness also holds ${others.length} chain(s) of ${senders} other sender(s): other machines (a home deleted whole, instance id included, looks the same; see docs/audit-witness.md)`);
  }
}

/** Each --key must sign this chain, or a chain of this instance the witness saw closed. */
function checkNamedKeys(local: LocalTrail, chains: readonly WitnessedChain[], findings: string[]): void {
  for (const named of local.namedKeys ?? []) {
    if (named.key === local.publicKey) continue;
    if (chains.some((chain) => chain.publicKey === named.key && chain.instance === local.instance && chain.closed)) continue;
    findings.push(`--key ${named.source} (${short(named.key)}) signs no chain here: not the local chain's key, nor a closed chain of this instance the witness holds`);
  }
}

/** The local trail of a home that has no instance id (never served with senders): held against every entry, as before senders. */
function compareUnnamed(local: LocalTrail, valid: readonly WitnessedCheckpoint[], findings: string[], notes: string[]): boolean {
  const others = new Set(valid.filter((entry) => entry.trail !== local.trail).map((entry) => entry.trail));
  if (local.trail === undefined) {
    if (valid.length > 0) findings.push(`the local log is empty, but the witness holds checkpoints of ${others.size} trail(s) from this sender: the trail was deleted`);
    return false;
  }
  if (!valid.some((entry) => entry.trail === local.trail)) {
    const elsewhere = others.size > 0 ? `; it holds ${others.size} other trail(s) from this sender, so this one was started over or re-chained from record 1` : '';
    findings.push(`the witness holds no checkpoint of this trail (${short(local.trail)})${elsewhere}`);
    return false;
  }
  if (others.size > 0) notes.push(`the witness also holds ${others.size} other trail(s) from this sender (other machines, or a trail started over)`);
  return true;
}

export function compareWithWitness(local: LocalTrail, witnessed: readonly WitnessedCheckpoint[]): WitnessComparison {
  const findings: string[] = [];
  const notes: string[] = [];
  const valid = validEntries(witnessed, notes);
  const chains = chainsOf(valid);
  if (local.instance === undefined) {
    if (!compareUnnamed(local, valid, findings, notes)) return { ok: false, findings, notes, witnessedSeq: null };
  } else {
    checkInstance(local, chains, findings, notes);
    checkNamedKeys(local, chains, findings);
    if (local.trail === undefined) return { ok: findings.length === 0, findings, notes, witnessedSeq: null };
    if (!valid.some((entry) => entry.trail === local.trail)) {
      findings.push(`the witness holds no checkpoint of this trail (${short(local.trail)}): it never reached the witness, or it was started over`);
      return { ok: false, findings, notes, witnessedSeq: null };
    }
  }
  const mine = valid.filter((entry) => entry.trail === local.trail);
  const pinnedKey = mine[0]!.public_key;
  const foreign = mine.filter((entry) => entry.public_key !== pinnedKey);
  if (local.publicKey !== undefined && local.publicKey !== pinnedKey) {
    findings.push(`re-chained under a new key: the local trail is signed by ${short(local.publicKey)}, the witness pinned ${short(pinnedKey)} for it`);
  } else if (foreign.length > 0) {
    findings.push(`the witness was sent ${foreign.length} checkpoint(s) of this trail signed by another key (${short(foreign[0]!.public_key)}): someone re-chained it under a new key`);
  }
  const witnessedSeq = checkPoints(local, mine.filter((entry) => entry.public_key === pinnedKey), findings);
  return { ok: findings.length === 0, findings, notes, witnessedSeq };
}

export interface InventoryChain extends LocalTrail {
  /** How people name the chain (the store's chain id, or the file). */
  name: string;
}

/**
 * Holds every chain of a store against a witness's inventory: each chain the witness cosigned
 * must still be there, as long and with the same hashes (compareWithWitness per chain), and a
 * trail the witness knows that no chain carries any more was deleted, and a sender's chain that
 * stopped unclosed and was followed by one under a new key was replaced. A chain the witness
 * never saw (made before the witness was set) is a note: its key's trust decides it.
 */
export function compareInventory(chains: readonly InventoryChain[], witnessed: readonly WitnessedCheckpoint[]): WitnessComparison {
  const findings: string[] = [];
  const notes: string[] = [];
  const valid = validEntries(witnessed, notes);
  const present = new Set(chains.map((chain) => chain.trail).filter((trail): trail is string => trail !== undefined));
  const known = new Map<string, SignedCheckpoint>();
  for (const entry of valid) if ((known.get(entry.trail)?.seq ?? -1) < entry.seq) known.set(entry.trail, entry);
  for (const [trail, newest] of known) {
    if (!present.has(trail)) findings.push(`deleted: the witness cosigned trail ${short(trail)} up to seq ${newest.seq} (key ${short(newest.public_key)}), and no chain in the store carries it`);
  }
  let witnessedSeq: number | null = null;
  for (const chain of chains) {
    if (chain.trail === undefined || !known.has(chain.trail)) {
      notes.push(`${chain.name}: not witnessed (made before the witness was set, or never reached it)`);
      continue;
    }
    const result = compareWithWitness(chain, valid.filter((entry) => entry.trail === chain.trail));
    findings.push(...result.findings.map((finding) => `${chain.name}: ${finding}`));
    witnessedSeq = Math.max(witnessedSeq ?? 0, result.witnessedSeq ?? 0);
  }
  const openings = new Map(chains.flatMap((chain) => (chain.trail && chain.opening ? [[chain.trail, chain.opening] as const] : [])));
  findings.push(...replacedChains(chainsOf(valid), openings));
  return { ok: findings.length === 0, findings, notes, witnessedSeq };
}
