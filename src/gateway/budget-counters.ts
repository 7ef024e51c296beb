// Budget counters survive a restart by being rebuilt from the audit trail (the costs are in
// its request records): at start, before gw listens, and for a budget added while gw runs.
// No counter file of its own: the trail is already the record of what was spent. With Redis
// the count is shared and outlives an instance: the trail only raises a count that lost it.
import type { Logger } from '../logger.js';
import { counterKey } from '../spend/budget-keeper.js';
import type { TrailSource } from '../spend/trail-source.js';
import { earliestPeriodStart, rebuildCounters, type SpendServices } from '../spend/spend-services.js';
import type { StoredBudget } from '../state/governance-schema.js';
import type { StateStore } from '../state/state-store.js';

function budgetId(budget: StoredBudget): string {
  const key = counterKey(budget, new Date(0));
  return key.slice(0, key.lastIndexOf('|'));
}

export async function keepBudgetCounters(trail: TrailSource, state: StateStore, spend: SpendServices, logger: Logger): Promise<void> {
  const counted = new Set<string>();
  const rebuild = async (budgets: readonly StoredBudget[]): Promise<void> => {
    const now = new Date();
    // Once per budget: after that its live count is the truth, across period changes too.
    const fresh = budgets.filter((budget) => !counted.has(budgetId(budget)));
    if (fresh.length === 0) return;
    for (const budget of fresh) counted.add(budgetId(budget));
    const since = earliestPeriodStart(fresh, now) ?? now;
    const records = await rebuildCounters(fresh, trail.records(since), spend.counter, now);
    logger.debug({ budgets: fresh.length, records }, 'budget counters rebuilt from the audit trail');
  };
  await rebuild(state.snapshot().budgets ?? []);
  spend.counter.onLost?.(() => {
    counted.clear();
    return rebuild(state.snapshot().budgets ?? []).catch((error: unknown) => logger.error({ err: error instanceof Error ? error.message : String(error) }, 'budget counters could not be seeded again'));
  });
  state.onChange((snapshot) => {
    rebuild(snapshot.budgets ?? []).catch((error: unknown) => logger.error({ err: error instanceof Error ? error.message : String(error) }, 'budget counters could not be rebuilt'));
  });
}
