// Budget counters survive a restart by being rebuilt from the audit trail (the costs are in
// its request records): at start, before gw listens, and for a budget added while gw runs.
// No counter file of its own: the trail is already the record of what was spent.
import path from 'node:path';
import { AUDIT_LOG_FILE } from '../audit/audit-trail.js';
import type { Logger } from '../logger.js';
import { counterKey } from '../spend/budget-keeper.js';
import { readRequestRecords } from '../spend/read-trail.js';
import { earliestPeriodStart, rebuildCounters, type SpendServices } from '../spend/spend-services.js';
import type { StoredBudget } from '../state/governance-schema.js';
import type { StateStore } from '../state/state-store.js';

function budgetId(budget: StoredBudget): string {
  const key = counterKey(budget, new Date(0));
  return key.slice(0, key.lastIndexOf('|'));
}

export async function keepBudgetCounters(home: string, state: StateStore, spend: SpendServices, logger: Logger): Promise<void> {
  const file = path.join(home, 'audit', AUDIT_LOG_FILE);
  const counted = new Set<string>();
  const rebuild = async (budgets: readonly StoredBudget[]): Promise<void> => {
    const now = new Date();
    // Once per budget: after that its live count is the truth, across period changes too.
    const fresh = budgets.filter((budget) => !counted.has(budgetId(budget)));
    if (fresh.length === 0) return;
    for (const budget of fresh) counted.add(budgetId(budget));
    const since = earliestPeriodStart(fresh, now) ?? now;
    const records = await rebuildCounters(fresh, readRequestRecords(file, since), spend.counter, now);
    logger.debug({ budgets: fresh.length, records }, 'budget counters rebuilt from the audit trail');
  };
  await rebuild(state.snapshot().budgets ?? []);
  state.onChange((snapshot) => {
    rebuild(snapshot.budgets ?? []).catch((error: unknown) => logger.error({ err: error instanceof Error ? error.message : String(error) }, 'budget counters could not be rebuilt'));
  });
}
