// At start, with a witness configured: the witness's newest checkpoint of this instance's
// live chain is a floor the local trail must reach and a point it must pass through. A
// trail cut back, rolled back to an older copy, deleted or replaced (a reinstall that did
// not run gw audit rotate) while gw was stopped is refused before anything is served, as
// verify would refuse it afterwards. The record lookup is injected; the rest is pure.
import type { ChainHead } from './checkpoint.js';
import type { WitnessedCheckpoint } from './compare-witness.js';
import { isSignatureValid } from './checkpoint.js';
import { chainsOf, openedAfter, short, type ChainOpening, type WitnessedChain } from './witness-inventory.js';

export interface StartTrail {
  /** Absent when the home has no trail yet (or no signed checkpoint). */
  trail?: string;
  head: ChainHead | null;
  opening?: ChainOpening;
  /** The hash of the local record at `seq`, or undefined when the log does not hold it. */
  hashAt(seq: number): Promise<string | undefined>;
}

export interface WitnessRollback {
  /** What is wrong, in a sentence. */
  reason: string;
  witness: string;
  witnessed_trail: string;
  witnessed_seq: number;
  witnessed_hash: string;
}

/** This instance's newest chain at the witness (by first receipt), or null when the witness holds none. */
function liveChainOf(entries: readonly WitnessedCheckpoint[], instance: string): WitnessedChain | null {
  const own = chainsOf(entries.filter((entry) => isSignatureValid(entry))).filter((chain) => chain.instance === instance);
  return own.at(-1) ?? null;
}

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

/** Why the local trail is behind the witness's live chain of this instance, or null when it is not. */
export async function checkWitnessAtStart(local: StartTrail, entries: readonly WitnessedCheckpoint[], instance: string, witness: string): Promise<WitnessRollback | null> {
  const live = liveChainOf(entries, instance);
  if (live === null) return null;
  const reason = await reasonOf(local, live);
  if (reason === null) return null;
  return { reason, witness, witnessed_trail: live.trail, witnessed_seq: live.newest.seq, witnessed_hash: live.newest.hash };
}
