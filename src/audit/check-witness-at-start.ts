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

type Found = { reason: string; chain: WitnessedChain };

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

/** Why `chain` was closed below what the witness holds of it (or forked from it), or null. */
async function closedBelow(chain: WitnessedChain, at: ChainHead, hashAt?: (seq: number) => Promise<string | undefined>): Promise<string | null> {
  const newest = chain.newest;
  const closedAt = `the chain ${short(chain.trail)} was closed at seq ${at.seq}`;
  if (newest.seq > at.seq) {
    return `${closedAt}, but the witness holds it up to seq ${newest.seq} (received ${newest.received_at}): it was cut back or rolled back before a rotation closed it`;
  }
  if (newest.seq === at.seq) return newest.hash === at.hash ? null : `${closedAt} with another record than the witness saw there (hash ${short(newest.hash)}): it was rewritten before a rotation closed it`;
  // The witness never got the closing checkpoint: the closed chain must still pass through its newest witnessed point.
  if (hashAt === undefined || (await hashAt(newest.seq)) === newest.hash) return null;
  return `record ${newest.seq} of the closed chain ${short(chain.trail)} is not the one the witness saw (hash ${short(newest.hash)}): it was forked before a rotation closed it`;
}

/**
 * Each closed chain, as the witness saw it closed (its closed checkpoint) and as the home keeps
 * it (audit/chains/), must end at or after the newest point the witness holds, on that point.
 */
async function closedChainProblem(local: StartTrail, chains: readonly WitnessedChain[], own: readonly WitnessedCheckpoint[], instance: string): Promise<Found | null> {
  for (const chain of chains) {
    const closings = own.filter((entry) => entry.trail === chain.trail && entry.closed === true && entry.public_key === chain.publicKey && chain.instance === instance);
    for (const closing of closings) {
      const reason = await closedBelow(chain, closing);
      if (reason !== null) return { reason, chain };
    }
    const kept = local.closed?.find((closed) => closed.trail === chain.trail);
    const reason = kept === undefined ? null : await closedBelow(chain, kept, (seq) => kept.hashAt(seq));
    if (reason !== null) return { reason, chain };
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
  const found = liveReason !== null && live !== undefined ? { reason: liveReason, chain: live } : await closedChainProblem(local, chains, valid, instance);
  if (found === null) return null;
  const { reason, chain } = found;
  // Accepted once (gw serve or gw audit rotate --accept-audit-gap): the audit.gap record stands for it from then on.
  if (await local.acceptedGap?.(chain.trail, chain.newest.seq)) return null;
  return { reason, witness, witnessed_trail: chain.trail, witnessed_seq: chain.newest.seq, witnessed_hash: chain.newest.hash };
}
