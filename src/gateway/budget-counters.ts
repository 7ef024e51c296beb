// Budget counters survive a restart by being rebuilt from the audit trail (the costs are in
// its request records): at start, before gw listens, and for a budget added while gw runs.
// No counter file of its own: the trail is already the record of what was spent. With Redis
// the count is shared and outlives an instance: it is reconciled with the trail (both ways:
// raised when Redis lost it, lowered when it holds charges that never happened) at start, for a
// new budget, and after every outage of Redis, a freeze as much as a reconnection.
import type { Logger } from '../logger.js';
import { counterKey } from '../spend/budget-keeper.js';
import type { SpendReconciler } from '../spend/spend-counter.js';
import { sumTrail } from '../spend/sum-trail.js';
import type { TrailSource } from '../spend/trail-source.js';
import { earliestPeriodStart, rebuildCounters, type SpendServices } from '../spend/spend-services.js';
import type { StoredBudget } from '../state/governance-schema.js';
import type { StateStore } from '../state/state-store.js';

/** Record times are on each instance's clock, Redis's may differ: the recent stretch of ids is widened by this. */
const CLOCK_SLACK_MS = 60_000;

function budgetId(budget: StoredBudget): string {
  const key = counterKey(budget, new Date(0));
  return key.slice(0, key.lastIndexOf('|'));
}

export async function keepBudgetCounters(trail: TrailSource, state: StateStore, spend: SpendServices, logger: Logger): Promise<void> {
  const counted = new Set<string>();
  const reconciler = spend.counter.reconciler;
  const bringToTrail = async (budgets: readonly StoredBudget[]): Promise<void> => {
    if (reconciler) {
      try {
        return await reconcileWithTrail(budgets, trail, reconciler, logger);
      } catch (error) {
        // Redis out at start: counted in process for now (seeded); reconciled when Redis answers.
        logger.debug({ err: error instanceof Error ? error.message : String(error) }, 'budget counters not reconciled yet');
      }
    }
    const now = new Date();
    const records = await rebuildCounters(budgets, trail.records(earliestPeriodStart(budgets, now) ?? now), spend.counter, now);
    logger.debug({ budgets: budgets.length, records }, 'budget counters rebuilt from the audit trail');
  };
  const rebuild = async (budgets: readonly StoredBudget[]): Promise<void> => {
    // Once per budget: after that its live count is the truth, across period changes too.
    const fresh = budgets.filter((budget) => !counted.has(budgetId(budget)));
    if (fresh.length === 0) return;
    for (const budget of fresh) counted.add(budgetId(budget));
    await bringToTrail(fresh);
  };
  await rebuild(state.snapshot().budgets ?? []);
  reconciler?.onRecovered(async () => {
    const budgets = state.snapshot().budgets ?? [];
    if (budgets.length === 0) return;
    await reconcileWithTrail(budgets, trail, reconciler, logger).catch((error: unknown) => logger.error({ err: error instanceof Error ? error.message : String(error) }, 'budget counters could not be reconciled with the trail'));
  });
  state.onChange((snapshot) => {
    rebuild(snapshot.budgets ?? []).catch((error: unknown) => logger.error({ err: error instanceof Error ? error.message : String(error) }, 'budget counters could not be rebuilt'));
  });
}

/**
 * Each budget's current count becomes what the trail recorded plus the holds of calls still running
 * plus what settled too recently to be in the trail yet (SpendReconciler.reconcile). The store's
 * clock is read before the trail, so whatever settled earlier than `recentMs` before it is in the read.
 */
async function reconcileWithTrail(budgets: readonly StoredBudget[], trail: TrailSource, reconciler: SpendReconciler, logger: Logger): Promise<void> {
  const now = new Date();
  const mark = await reconciler.mark();
  const since = earliestPeriodStart(budgets, now) ?? now;
  const recentSince = new Date(now.getTime() - reconciler.recentMs - CLOCK_SLACK_MS);
  const sums = await sumTrail(budgets, trail.records(since), now, recentSince);
  for (const [key, nanos] of sums.totals) {
    const { before, after } = await reconciler.reconcile(key, nanos, sums.recentIds.get(key) ?? [], mark - reconciler.recentMs);
    // A count that moved is worth a line: it had drifted from the trail (an outage, a lost store).
    if (before !== after) logger.warn({ budget: key, before_nano_usd: before, after_nano_usd: after, recorded_nano_usd: nanos }, 'budget counter reconciled with the audit trail');
  }
}
