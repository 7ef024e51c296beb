// At start, with a witness configured: the witness's newest checkpoint of this instance's
// live chain is a floor the local trail must reach and a point it must pass through. A
// trail cut back, rolled back to an older copy, deleted or replaced (a reinstall that did
// not run gw audit rotate) while gw was stopped is refused before anything is served, as
// verify would refuse it afterwards. A closed chain is held the same way: a rotation run on
// a trail cut back would otherwise close it below what the witness holds and hide the cut.
// `gw audit rotate` holds the chain it is about to close to the same rule. The record
// lookups are injected; the rest is pure.
import type { ChainHead } from './checkpoint.js';
import type { WitnessedCheckpoint } from './compare-witness.js';
import { isSignatureValid } from './checkpoint.js';
import { chainsOf, openedAfter, short, type ChainOpening, type WitnessedChain } from './witness-inventory.js';

/** A closed chain of the home (audit/chains/): its closed checkpoint's head, and its records. */
export interface LocalClosedChain extends ChainHead {
  trail: string;
  hashAt(seq: number): Promise<string | undefined>;
}

export interface StartTrail {
  /** Absent when the home has no trail yet (or no signed checkpoint). */
  trail?: string;
  head: ChainHead | null;
  opening?: ChainOpening;
  /** The hash of the local record at `seq`, or undefined when the log does not hold it. */
  hashAt(seq: number): Promise<string | undefined>;
  /** The home's closed chains (each sealed by its closed checkpoint). */
  closed?: readonly LocalClosedChain[];
  /** Whether the home's trail holds an `audit.gap` that accepted this witnessed head already (or a later one of that chain). */
  acceptedGap?(witnessedTrail: string, witnessedSeq: number): Promise<boolean>;
}

export interface WitnessRollback {
  /** What is wrong, in a sentence. */
  reason: string;
  witness: string;
  witnessed_trail: string;
  witnessed_seq: number;
  witnessed_hash: string;
}

/** What was found, and the witnessed point it is held against (the audit.gap names it). */
type Found = { reason: string; trail: string; point: WitnessedCheckpoint };

async function reasonOf(local: StartTrail, live: WitnessedChain): Promise<string | null> {
  const newest = live.newest;
  if (local.trail === live.trail) {
    const endSeq = local.head?.seq ?? 0;
    if (endSeq < newest.seq) return `the local trail ends at seq ${endSeq}, the witness holds its checkpoint at seq ${newest.seq} (received ${newest.received_at})`;
    const hash = await local.hashAt(newest.seq);
    return hash === newest.hash ? null : `record ${newest.seq} is not the one the witness saw (hash ${short(newest.hash)}): the trail was rewritten`;
  }
  // A chain a rotation opened names the one it closed, even when the closing checkpoint never reached the witness.
  if (live.closed || openedAfter(local.opening, live)) return null;
  const what = `the witness holds this instance's chain ${short(live.trail)} up to seq ${newest.seq} (key ${short(live.publicKey)}), not closed`;
  return local.trail === undefined
    ? `the local trail is gone: ${what}`
    : `the local trail ${short(local.trail)} is not that chain: ${what}. The trail was replaced (a reinstall or new key without gw audit rotate) or rolled back to another chain`;
}

/** Why a chain closed at `at` is below or off what the witness holds of it (`points`: its entries under the pinned key), or null. */
async function closedBelow(points: readonly WitnessedCheckpoint[], at: ChainHead & { trail: string }, hashAt?: (seq: number) => Promise<string | undefined>): Promise<Found | null> {
  const closedAt = `the chain ${short(at.trail)} was closed at seq ${at.seq}`;
  const top = points.reduce((best, entry) => (entry.seq > best.seq ? entry : best));
  if (top.seq > at.seq) {
    return { trail: at.trail, point: top, reason: `${closedAt}, but the witness holds it up to seq ${top.seq} (received ${top.received_at}): it was cut back or rolled back before a rotation closed it` };
  }
  const other = points.find((entry) => entry.seq === at.seq && entry.hash !== at.hash);
  if (other !== undefined) return { trail: at.trail, point: other, reason: `${closedAt} with another record than the witness saw there (hash ${short(other.hash)}): it was rewritten before a rotation closed it` };
  // The witness never got the closing checkpoint: the closed chain must still pass through its newest witnessed point.
  if (top.seq === at.seq || hashAt === undefined || (await hashAt(top.seq)) === top.hash) return null;
  return { trail: at.trail, point: top, reason: `record ${top.seq} of the closed chain ${short(at.trail)} is not the one the witness saw (hash ${short(top.hash)}): it was forked before a rotation closed it` };
}

/**
 * Each closed chain, as the witness saw it closed (its closed checkpoints) and as the home keeps
 * it (audit/chains/), must end at or after the newest point the witness holds, on that point.
 */
async function closedChainProblem(local: StartTrail, chains: readonly WitnessedChain[], valid: readonly WitnessedCheckpoint[], instance: string): Promise<Found | null> {
  for (const chain of chains) {
    const points = valid.filter((entry) => entry.trail === chain.trail && entry.public_key === chain.publicKey);
    const closings = chain.instance === instance ? points.filter((entry) => entry.closed === true) : [];
    for (const closing of closings) {
      const found = await closedBelow(points, closing);
      if (found !== null) return found;
    }
    const kept = local.closed?.find((closed) => closed.trail === chain.trail);
    const found = kept === undefined ? null : await closedBelow(points, kept, (seq) => kept.hashAt(seq));
    if (found !== null) return found;
  }
  return null;
}

/** Why the local trail is behind what the witness holds of this instance, or null when it is not (or the gap was accepted already). */
export async function checkWitnessAtStart(local: StartTrail, entries: readonly WitnessedCheckpoint[], instance: string, witness: string): Promise<WitnessRollback | null> {
  const valid = entries.filter((entry) => isSignatureValid(entry));
  const chains = chainsOf(valid);
  // This instance's newest chain at the witness (by first receipt) is the one the local trail must be, or follow.
  const live = chains.filter((chain) => chain.instance === instance).at(-1);
  const liveReason = live === undefined ? null : await reasonOf(local, live);
  const found = liveReason !== null && live !== undefined ? { reason: liveReason, trail: live.trail, point: live.newest } : await closedChainProblem(local, chains, valid, instance);
  if (found === null) return null;
  const { reason, trail, point } = found;
  // Accepted once (gw serve or gw audit rotate --accept-audit-gap): the audit.gap record stands for it from then on.
  if (await local.acceptedGap?.(trail, point.seq)) return null;
  return { reason, witness, witnessed_trail: trail, witnessed_seq: point.seq, witnessed_hash: point.hash };
}
