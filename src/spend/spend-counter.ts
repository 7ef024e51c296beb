// What a budget counts against: spend per budget period, in nano-USD. A small interface
// (reserve, settle, spent) so a shared store (Redis: INCRBY with a check, in one script) can
// replace the in-process one when gw scales out; its methods are async for that reason.
// Every reservation carries its call's id, so a shared store can find a reservation whose answer
// never reached gw (Redis froze) and release it, and settling the same call twice changes nothing.

export interface SpendCounter {
  /**
   * Holds `nanos` for call `callId` unless that would take the counter past `limit` (null: no
   * limit, always held). Check and add are one step, so concurrent reservations cannot both pass.
   */
  reserve(key: string, callId: string, nanos: number, limit: number | null): Promise<boolean>;
  /**
   * Replaces call `callId`'s hold by what it really cost (0: a release). A call with no hold (a
   * charge, or a hold that expired) adds `actual`.
   */
  settle(key: string, callId: string, actual: number): Promise<void>;
  spent(key: string): Promise<number>;
  /**
   * A period's spend found in the audit trail (at start, for a new budget): the count becomes at
   * least this. Never added, so a shared count that already holds the trail (other instances,
   * calls since) is not counted twice.
   */
  seed(key: string, nanos: number): Promise<void>;
  /** Shared counters only: brought back to the trail after any outage, both ways. */
  reconciler?: SpendReconciler;
}

/**
 * A shared counter that can have drifted from the trail (a store that lost its data, holds whose
 * call never settled, settles that never arrived) is reconciled: its count becomes what the trail
 * recorded, plus the holds of calls still running, plus what settled too recently to be in the
 * trail yet. Lowered as well as raised.
 */
export interface SpendReconciler {
  /** Runs after every outage of the store once it answers again (and at most one at a time). */
  onRecovered(listener: () => Promise<void>): void;
  /** The store's clock (ms), read before the trail: the trail read holds what settled before it, less `recentMs`. */
  mark(): Promise<number>;
  /** How long a settled call may take to be readable in the trail. */
  readonly recentMs: number;
  /**
   * counter := `recordedNanos` + live holds + what settled at or after `since` (store ms) under an
   * id not in `recordedIds` (the trail's ids of that stretch). Returns the count before and after.
   */
  reconcile(key: string, recordedNanos: number, recordedIds: readonly string[], since: number): Promise<{ before: number; after: number }>;
}

/** In process: a map from `budget|period start` to nano-USD; a key whose period ended is dropped when a newer one appears. */
export function createMemorySpendCounter(): SpendCounter {
  const counts = new Map<string, number>();
  // Holds per `key\ncall id`: a settle replaces exactly its call's hold.
  const holds = new Map<string, number>();
  return {
    async reserve(key, callId, nanos, limit) {
      const current = counts.get(key) ?? 0;
      if (limit !== null && current + nanos > limit) return false;
      if (!counts.has(key)) dropOlderPeriods(counts, holds, key);
      counts.set(key, current + nanos);
      holds.set(`${key}\n${callId}`, nanos);
      return true;
    },
    async settle(key, callId, actual) {
      const hold = `${key}\n${callId}`;
      const reserved = holds.get(hold) ?? 0;
      holds.delete(hold);
      counts.set(key, Math.max(0, (counts.get(key) ?? 0) - reserved + actual));
    },
    async spent(key) {
      return counts.get(key) ?? 0;
    },
    async seed(key, nanos) {
      if (!counts.has(key)) dropOlderPeriods(counts, holds, key);
      counts.set(key, Math.max(counts.get(key) ?? 0, nanos));
    },
  };
}

/** Keys are `budget id|period start`: a new period of a budget retires its older ones. */
function dropOlderPeriods(counts: Map<string, number>, holds: Map<string, number>, key: string): void {
  const budget = key.slice(0, key.lastIndexOf('|') + 1);
  for (const existing of counts.keys()) if (existing.startsWith(budget) && existing !== key) counts.delete(existing);
  for (const hold of holds.keys()) if (hold.startsWith(budget) && !hold.startsWith(`${key}\n`)) holds.delete(hold);
}
