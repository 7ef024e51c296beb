// What the trail recorded against each budget's current period: the sum of its request records'
// costs per counter key, and per key the ids of its records from `recentSince` on (a shared
// counter's reconciliation tells the calls the trail already has from those it does not have yet).
import type { StoredBudget } from '../state/governance-schema.js';
import { budgetApplies, counterKey } from './budget-keeper.js';
import { periodOf } from './budget-period.js';
import type { RequestRecord } from './read-trail.js';

export interface TrailSums {
  /** Every budget's current counter key, 0 when nothing was recorded against it. */
  totals: Map<string, number>;
  /** Per counter key: ids of the records at or after `recentSince` that counted against it. */
  recentIds: Map<string, string[]>;
  /** Records that counted against at least one budget. */
  counted: number;
}

export async function sumTrail(budgets: readonly StoredBudget[], records: AsyncIterable<RequestRecord>, now: Date, recentSince?: Date): Promise<TrailSums> {
  const windows = budgets.map((budget) => ({ budget, window: periodOf(budget.period, now, budget.time_zone) }));
  const totals = new Map(windows.map(({ budget, window }) => [counterKey(budget, window.start), 0]));
  const recentIds = new Map<string, string[]>();
  const recentIso = recentSince?.toISOString();
  let counted = 0;
  const noteRecent = (key: string, record: RequestRecord): void => {
    if (recentIso === undefined || record.ts < recentIso || !record.request_id) return;
    const ids = recentIds.get(key);
    if (ids) ids.push(record.request_id); else recentIds.set(key, [record.request_id]);
  };
  for await (const record of records) {
    const nanos = record.cost?.nano_usd;
    if (nanos === undefined || nanos <= 0) continue;
    const at = Date.parse(record.ts);
    const subject = { team: record.team ?? '', keyId: record.key_id ?? null, person: record.person ?? null };
    let hit = false;
    for (const { budget, window } of windows) {
      if (at < window.start.getTime() || at >= window.end.getTime() || !budgetApplies(budget, subject)) continue;
      const key = counterKey(budget, window.start);
      totals.set(key, (totals.get(key) ?? 0) + nanos);
      noteRecent(key, record);
      hit = true;
    }
    if (hit) counted += 1;
  }
  return { totals, recentIds, counted };
}
