// What a budget counts against: spend per budget period, in nano-USD. A small interface
// (reserve, settle, spent) so a shared store (Redis: INCRBY with a check, in one script) can
// replace the in-process one when gw scales out; its methods are async for that reason.

export interface SpendCounter {
  /**
   * Adds `nanos` to the counter unless that would take it past `limit` (null: no limit, always
   * added). Check and add are one step, so concurrent reservations cannot both pass.
   */
  reserve(key: string, nanos: number, limit: number | null): Promise<boolean>;
  /** Replaces a reservation by what the call really cost (either may be 0). */
  settle(key: string, reserved: number, actual: number): Promise<void>;
  spent(key: string): Promise<number>;
  /**
   * A period's spend found in the audit trail (at start, for a new budget, after Redis came back):
   * the count becomes at least this. Never added, so a shared count that already holds the trail
   * (other instances, calls since) is not counted twice.
   */
  seed(key: string, nanos: number): Promise<void>;
  /**
   * A shared counter whose store may have lost its counts (Redis came back): seed again. Until the
   * listener's promise settles, reservations wait: one made into the empty count first would be
   * swallowed by the seed (which raises a count to the trail's, and never adds).
   */
  onLost?(listener: () => Promise<void> | void): void;
}

/** In process: a map from `budget|period start` to nano-USD; a key whose period ended is dropped when a newer one appears. */
export function createMemorySpendCounter(): SpendCounter {
  const counts = new Map<string, number>();
  return {
    async reserve(key, nanos, limit) {
      const current = counts.get(key) ?? 0;
      if (limit !== null && current + nanos > limit) return false;
      if (!counts.has(key)) dropOlderPeriods(counts, key);
      counts.set(key, current + nanos);
      return true;
    },
    async settle(key, reserved, actual) {
      counts.set(key, Math.max(0, (counts.get(key) ?? 0) - reserved + actual));
    },
    async spent(key) {
      return counts.get(key) ?? 0;
    },
    async seed(key, nanos) {
      if (!counts.has(key)) dropOlderPeriods(counts, key);
      counts.set(key, Math.max(counts.get(key) ?? 0, nanos));
    },
  };
}

/** Keys are `budget id|period start`: a new period of a budget retires its older ones. */
function dropOlderPeriods(counts: Map<string, number>, key: string): void {
  const budget = key.slice(0, key.lastIndexOf('|') + 1);
  for (const existing of counts.keys()) if (existing.startsWith(budget) && existing !== key) counts.delete(existing);
}
