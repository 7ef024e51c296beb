// A rotation inside one OCSF file (an export or a sink's received file that spans `gw audit
// rotate`): the events of chain B follow those of chain A only when A ended on purpose (its last
// event is the audit.chain_closed record, signed by A's key under a closed checkpoint) and B's
// first event is its record 1, audit.chain_opened, naming A at that closing head under that key.
// B's key is then trusted because A's trusted key introduced it (as src/audit/rotation-trust.ts
// decides for a home or a store), and B must be signed by exactly that key.
import { fingerprintOf } from '../key-fingerprint.js';
import type { ChainHead } from '../checkpoint.js';
import type { ChainClosing, ChainOpening } from '../verify.js';

/** What the file's current chain has shown so far, for judging a hand-over to the next one. */
export interface ChainSoFar {
  chain: string;
  head: ChainHead;
  /** The key of its last signature, and whether that signature was a closed checkpoint's. */
  signer?: string;
  lastSignedSeq?: number;
  lastSignatureClosed?: boolean;
  closing?: ChainClosing;
}

/** Why `opening` (record 1 of `next`) cannot follow `previous` in one file, or undefined. */
export function handOverProblem(previous: ChainSoFar, next: string, opening: ChainOpening | undefined): string | undefined {
  const short = previous.chain.slice(0, 12);
  if (previous.closing === undefined || previous.closing.seq !== previous.head.seq) {
    return `belongs to another chain (${next}) than the events before it (${previous.chain}), which do not end with that chain's audit.chain_closed record: events of two chains without a rotation between them (keep one file per chain_uid)`;
  }
  if (previous.lastSignedSeq !== previous.head.seq || previous.lastSignatureClosed !== true) {
    return `follows the closing record of chain ${short}…, which carries no closed checkpoint's signature: the close is not signed`;
  }
  if (opening === undefined) return `the first event of chain ${next} after the close of ${short}… is not its record 1 audit.chain_opened (the new chain's head is missing)`;
  if (opening.previous_trail !== previous.chain || opening.previous_seq !== previous.head.seq || opening.previous_hash !== previous.head.hash) {
    return `record 1 names the closed chain ${opening.previous_trail.slice(0, 12)}… at seq ${opening.previous_seq}, not ${short}… at its closing record (seq ${previous.head.seq}) just before it`;
  }
  if (opening.previous_public_key !== previous.signer) return `record 1 names ${short}… under key ${fingerprintOf(opening.previous_public_key)}, but that chain is signed by another key`;
  return undefined;
}

/** The note a verified hand-over leaves. */
export function handOverNote(previous: ChainSoFar, next: string): string {
  const introduced = previous.closing!.next_public_key;
  return `chain ${next} follows chain ${previous.chain} by gw audit rotate: key ${fingerprintOf(introduced)} trusted by rotation from ${fingerprintOf(previous.signer!)}`;
}
