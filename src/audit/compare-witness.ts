// Holds the local trail against what a witness kept, pure. A witnessed checkpoint
// {trail, seq, hash} is a point the local chain must pass through (record seq has that
// hash) and a floor it must reach; the first key the witness saw for a trail is pinned,
// so a trail re-chained under a new key, cut, or rolled back to an older state shows,
// even when its own checkpoint and key were rewritten to match (RFC 6962 §2.1.2, the
// consistency idea of Certificate Transparency, applied to one writer's trail).
import { isSignatureValid, type ChainHead, type SignedCheckpoint } from './checkpoint.js';

export interface WitnessSender {
  team: string | null;
  person: string | null;
  key_id: string | null;
}

export interface WitnessedCheckpoint extends SignedCheckpoint {
  received_at: string;
  /** Who sent it, as the hub's door identified them; absent in a file witness. */
  from?: WitnessSender;
}

export interface LocalTrail {
  /** Absent when the log is empty or record 1 did not verify. */
  trail?: string;
  /** The key of the local checkpoint (audit.pub). */
  publicKey?: string;
  head: ChainHead | null;
  /** Hashes of the local records at the witnessed seqs. */
  hashesAt: ReadonlyMap<number, string>;
}

export interface WitnessComparison {
  ok: boolean;
  findings: string[];
  notes: string[];
  /** The newest seq the witness holds for this trail under its pinned key. */
  witnessedSeq: number | null;
}

const short = (text: string): string => `${text.slice(0, 12)}…`;

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

export function compareWithWitness(local: LocalTrail, witnessed: readonly WitnessedCheckpoint[]): WitnessComparison {
  const findings: string[] = [];
  const notes: string[] = [];
  const valid = witnessed.filter((entry) => isSignatureValid(entry));
  if (valid.length < witnessed.length) notes.push(`${witnessed.length - valid.length} witnessed checkpoint(s) with a bad signature were ignored`);
  const others = new Set(valid.filter((entry) => entry.trail !== local.trail).map((entry) => entry.trail));
  if (local.trail === undefined) {
    if (valid.length > 0) findings.push(`the local log is empty, but the witness holds checkpoints of ${others.size} trail(s) from this sender: the trail was deleted`);
    return { ok: findings.length === 0, findings, notes, witnessedSeq: null };
  }
  const mine = valid.filter((entry) => entry.trail === local.trail);
  if (mine.length === 0) {
    const elsewhere = others.size > 0 ? `; it holds ${others.size} other trail(s) from this sender, so this one was started over or re-chained from record 1` : '';
    findings.push(`the witness holds no checkpoint of this trail (${short(local.trail)})${elsewhere}`);
    return { ok: false, findings, notes, witnessedSeq: null };
  }
  const pinnedKey = mine[0]!.public_key;
  const foreign = mine.filter((entry) => entry.public_key !== pinnedKey);
  if (local.publicKey !== undefined && local.publicKey !== pinnedKey) {
    findings.push(`re-chained under a new key: the local trail is signed by ${short(local.publicKey)}, the witness pinned ${short(pinnedKey)} for it`);
  } else if (foreign.length > 0) {
    findings.push(`the witness was sent ${foreign.length} checkpoint(s) of this trail signed by another key (${short(foreign[0]!.public_key)}): someone re-chained it under a new key`);
  }
  const witnessedSeq = checkPoints(local, mine.filter((entry) => entry.public_key === pinnedKey), findings);
  if (others.size > 0) notes.push(`the witness also holds ${others.size} other trail(s) from this sender (other machines, or a trail started over)`);
  return { ok: findings.length === 0, findings, notes, witnessedSeq };
}

export interface InventoryChain extends LocalTrail {
  /** How people name the chain (the store's chain id, or the file). */
  name: string;
}

/**
 * Holds every chain of a store against a witness's inventory: each chain the witness cosigned
 * must still be there, as long and with the same hashes (compareWithWitness per chain), and a
 * trail the witness knows that no chain carries any more was deleted. A chain the witness
 * never saw (made before the witness was set) is a note: its key's trust decides it.
 */
export function compareInventory(chains: readonly InventoryChain[], witnessed: readonly WitnessedCheckpoint[]): WitnessComparison {
  const findings: string[] = [];
  const notes: string[] = [];
  const valid = witnessed.filter((entry) => isSignatureValid(entry));
  if (valid.length < witnessed.length) notes.push(`${witnessed.length - valid.length} witnessed checkpoint(s) with a bad signature were ignored`);
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
  return { ok: findings.length === 0, findings, notes, witnessedSeq };
}
