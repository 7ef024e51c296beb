// auth.refused_burst: refusals at the door are aggregated per origin, so a client
// hammering with a bad key costs one audit record per window instead of one per call.
// The first refusal of a burst is reported at once (alerts fire without delay); the
// rest are summarised when the window closes. The origin map is bounded: past
// `maxOrigins`, new origins are counted into one overflow bucket "*".
// The local guard's refusals (foreign Host, cross-origin) are aggregated the same
// way under their own kinds, guard.refused and guard.refused_burst.
import type { RefusalReason } from './authenticate.js';

/** The audit kinds of one tracker: its first refusal of a burst, and each window's summary. */
export type BurstKinds =
  | { first: 'auth.refused'; burst: 'auth.refused_burst' }
  | { first: 'guard.refused'; burst: 'guard.refused_burst' };

type BurstKind = BurstKinds['first'] | BurstKinds['burst'];

const AUTH_KINDS: BurstKinds = { first: 'auth.refused', burst: 'auth.refused_burst' };

export interface RefusalSummary<Reason extends string = RefusalReason> {
  origin: string;
  count: number;
  first_ts: string;
  last_ts: string;
  paths: string[];
  reasons: Partial<Record<Reason, number>>;
  /** The refused gw keys' hints (sk-gw-abcd…wxyz, never the key) and the ids of those gw knows (revoked, expired): at most 10 each. */
  keys?: string[];
  key_ids?: string[];
}

/** A refused credential as a record may name it: its hint, and its id when it is a key gw knows. */
export interface RefusedKey { hint: string; id: string | null }

export interface RefusedBurstOptions<Reason extends string = RefusalReason> {
  windowMs: number;
  maxOrigins?: number;
  maxPathsPerOrigin?: number;
  now?: () => number;
  /** Default: auth.refused and auth.refused_burst. */
  kinds?: BurstKinds;
  /** Called for the first refusal of a burst (kinds.first) and for each window summary (kinds.burst). */
  emit: (kind: BurstKind, summary: RefusalSummary<Reason>) => void;
}

interface Burst<Reason extends string> {
  windowStart: number;
  first: number;
  last: number;
  /** Refusals in this window that no event has reported yet. */
  unreported: number;
  count: number;
  paths: Set<string>;
  reasons: Partial<Record<Reason, number>>;
  keys: Set<string>;
  keyIds: Set<string>;
}

export const OVERFLOW_ORIGIN = '*';

export class RefusedBurstTracker<Reason extends string = RefusalReason> {
  private readonly bursts = new Map<string, Burst<Reason>>();
  private readonly maxOrigins: number;
  private readonly maxPaths: number;
  private readonly now: () => number;
  private readonly kinds: BurstKinds;

  constructor(private readonly options: RefusedBurstOptions<Reason>) {
    this.kinds = options.kinds ?? AUTH_KINDS;
    this.maxOrigins = options.maxOrigins ?? 10_000;
    this.maxPaths = options.maxPathsPerOrigin ?? 10;
    this.now = options.now ?? Date.now;
  }

  get trackedOrigins(): number {
    return this.bursts.size;
  }

  record(origin: string, path: string, reason: Reason, refusedKey: RefusedKey | null = null): void {
    const now = this.now();
    const key = this.bursts.has(origin) || this.bursts.size < this.maxOrigins ? origin : OVERFLOW_ORIGIN;
    let burst = this.bursts.get(key);
    const isNew = !burst;
    if (!burst) {
      burst = { windowStart: now, first: now, last: now, unreported: 0, count: 0, paths: new Set(), reasons: {}, keys: new Set(), keyIds: new Set() };
      this.bursts.set(key, burst);
    }
    burst.last = now;
    burst.count += 1;
    burst.unreported += 1;
    burst.reasons[reason] = (burst.reasons[reason] ?? 0) + 1;
    if (burst.paths.size < this.maxPaths) burst.paths.add(path);
    if (refusedKey !== null && burst.keys.size < this.maxPaths) burst.keys.add(refusedKey.hint);
    if (refusedKey?.id && burst.keyIds.size < this.maxPaths) burst.keyIds.add(refusedKey.id);
    if (isNew) {
      burst.unreported = 0;
      this.options.emit(this.kinds.first, this.summarise(key, burst));
    }
  }

  /** Closes every window older than windowMs (or all of them with `all`): one summary per origin that saw more refusals. */
  flush(all = false): void {
    const now = this.now();
    for (const [origin, burst] of this.bursts) {
      if (!all && now - burst.windowStart < this.options.windowMs) continue;
      if (burst.unreported > 0) {
        this.options.emit(this.kinds.burst, this.summarise(origin, burst));
        // The burst goes on: the next window counts afresh, with no second immediate event.
        Object.assign(burst, { windowStart: now, first: now, unreported: 0, count: 0, paths: new Set(), reasons: {}, keys: new Set(), keyIds: new Set() });
        if (all) this.bursts.delete(origin);
      } else {
        this.bursts.delete(origin);
      }
    }
  }

  private summarise(origin: string, burst: Burst<Reason>): RefusalSummary<Reason> {
    return {
      origin,
      count: burst.count,
      first_ts: new Date(burst.first).toISOString(),
      last_ts: new Date(burst.last).toISOString(),
      paths: [...burst.paths],
      reasons: { ...burst.reasons },
      ...(burst.keys.size > 0 ? { keys: [...burst.keys] } : {}),
      ...(burst.keyIds.size > 0 ? { key_ids: [...burst.keyIds] } : {}),
    };
  }
}

/** The origin a refusal is counted under: IPv6 addresses grouped by /64, since one host usually owns a whole /64. */
export function originOf(address: string): string {
  if (!address.includes(':') || address.startsWith('::ffff:')) return address.replace(/^::ffff:/, '');
  const groups = expandIpv6(address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = Math.max(0, 8 - headGroups.length - tailGroups.length);
  return [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups].map((group) => group.replace(/^0+(?=.)/, ''));
}
