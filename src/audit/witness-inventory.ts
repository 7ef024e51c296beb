// A witness's inventory, pure: the chains it cosigned, per sender (an instance id, a
// sidecar's person and device), each with its pinned key, newest checkpoint and whether it
// was closed (`gw audit rotate`'s last checkpoint). A sender's chain that stops without a
// closing checkpoint and is followed by a chain under another key was replaced behind the
// witness's back (a reinstall, a deleted trail and key); a new chain under the same key is
// a restart (PostgreSQL opens one chain per boot) and is fine.
import type { WitnessedCheckpoint, WitnessSender } from './witnessed-checkpoint.js';

export interface WitnessedChain {
  trail: string;
  /** Who sent it, as a comparable id; null for entries from before senders were kept. */
  sender: string | null;
  /** How people read the sender. */
  senderName: string;
  instance?: string;
  /** The first key the witness saw for the chain (pinned). */
  publicKey: string;
  /** The newest checkpoint under the pinned key. */
  newest: WitnessedCheckpoint;
  closed: boolean;
  firstReceivedAt: string;
}

/** The chain's own local opening: record 1 of a chain `gw audit rotate` opened names the chain it follows. */
export interface ChainOpening {
  previous_trail: string;
  previous_seq: number;
  previous_hash: string;
}

export const short = (text: string): string => `${text.slice(0, 12)}…`;

function senderIdOf(from: WitnessSender | undefined): string | null {
  if (!from || (from.instance === undefined && from.device === undefined)) return null;
  return JSON.stringify([from.team, from.person, from.device ?? null, from.instance ?? null]);
}

function describeSender(from: WitnessSender | undefined): string {
  if (!from) return 'an unnamed sender';
  const parts = [
    from.instance ? `instance ${from.instance}` : null, from.person ? `person ${from.person}` : null,
    from.device ? `device ${from.device}` : null, !from.person && from.team ? `team ${from.team}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : 'an unnamed sender';
}

/** Every chain the (signature-checked) entries name, in the order the witness first saw them. */
export function chainsOf(entries: readonly WitnessedCheckpoint[]): WitnessedChain[] {
  const chains = new Map<string, WitnessedChain>();
  for (const entry of entries) {
    const known = chains.get(entry.trail);
    if (!known) {
      chains.set(entry.trail, {
        trail: entry.trail, sender: senderIdOf(entry.from), senderName: describeSender(entry.from), publicKey: entry.public_key,
        newest: entry, closed: entry.closed === true, firstReceivedAt: entry.received_at, ...(entry.from?.instance ? { instance: entry.from.instance } : {}),
      });
    } else if (entry.public_key === known.publicKey) {
      if (entry.seq > known.newest.seq || (entry.seq === known.newest.seq && entry.closed === true)) known.newest = entry;
      if (entry.closed === true) known.closed = true;
      if (entry.received_at !== '' && (known.firstReceivedAt === '' || entry.received_at < known.firstReceivedAt)) known.firstReceivedAt = entry.received_at;
    }
  }
  return [...chains.values()].sort((a, b) => a.firstReceivedAt.localeCompare(b.firstReceivedAt));
}

/** The rotation named in `opening` accounts for `chain` ending where the witness last saw it (or later, unseen). */
export function openedAfter(opening: ChainOpening | undefined, chain: WitnessedChain): boolean {
  if (!opening || opening.previous_trail !== chain.trail) return false;
  return opening.previous_seq > chain.newest.seq || (opening.previous_seq === chain.newest.seq && opening.previous_hash === chain.newest.hash);
}

export function replacedMessage(before: WitnessedChain, after: { trail?: string; publicKey?: string }): string {
  const next = after.trail ? `chain ${short(after.trail)}` : 'a new chain';
  const key = after.publicKey ? ` under a new key ${short(after.publicKey)}` : ' under a new key';
  return `replaced without closing: ${before.senderName}'s chain ${short(before.trail)} (key ${short(before.publicKey)}) stopped at seq ${before.newest.seq} `
    + `without a closing record, and ${next} began${key}: a reinstall or a key change made behind the witness's back (or the trail and key were deleted). `
    + 'Run gw audit rotate before reinstalling or changing the key: it closes the chain and the new one names it';
}

/**
 * Per identified sender, each chain that stopped without being closed and was followed by one
 * under another key. `openings` holds the chains' own record 1 where the caller has it (a
 * chain opened by a rotation whose closing checkpoint never reached the witness names it).
 */
export function replacedChains(chains: readonly WitnessedChain[], openings: ReadonlyMap<string, ChainOpening> = new Map()): string[] {
  const findings: string[] = [];
  const bySender = new Map<string, WitnessedChain[]>();
  for (const chain of chains) if (chain.sender !== null) bySender.set(chain.sender, [...(bySender.get(chain.sender) ?? []), chain]);
  for (const list of bySender.values()) {
    for (let index = 1; index < list.length; index += 1) {
      const before = list[index - 1]!;
      const after = list[index]!;
      if (before.closed || before.publicKey === after.publicKey || openedAfter(openings.get(after.trail), before)) continue;
      findings.push(replacedMessage(before, after));
    }
  }
  return findings;
}
