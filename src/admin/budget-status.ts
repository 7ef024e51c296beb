// GET /admin/api/budgets/status: each budget against what it has spent this period, read from the
// counter the running gateway admits calls with (src/spend/budget-keeper.ts), in the period it
// uses (currentPeriodOf, counterKey): the figures are the ones a call is refused on, not a second
// sum of the trail that could disagree with them (holds of calls still running are in them).
import { counterKey } from '../spend/budget-keeper.js';
import { currentPeriodOf } from '../spend/budget-period.js';
import { NANOS_PER_USD } from '../spend/price-book.js';
import type { SpendCounter } from '../spend/spend-counter.js';
import type { StoredBudget } from '../state/governance-schema.js';

export interface BudgetStatusRow {
  scope: string;
  period: StoredBudget['period'];
  time_zone: string;
  mode: StoredBudget['mode'];
  amount_nano_usd: number;
  /** Spent this period, as the gateway counts it (settled calls and the holds of calls running). */
  spent_nano_usd: number;
  /** What a call may still spend; 0 once spent (a hard budget then refuses). */
  left_nano_usd: number;
  /** spent / amount, in percent, to one decimal. */
  used_percent: number;
  /** ok; over (a hard budget: calls are refused); warning (a soft budget spent: calls go on, with a warning). */
  state: 'ok' | 'over' | 'warning';
  period_start: string;
  resets_at: string;
}

export async function budgetStatus(budgets: readonly StoredBudget[], counter: SpendCounter, now: Date): Promise<BudgetStatusRow[]> {
  return Promise.all(budgets.map(async (budget) => {
    const window = currentPeriodOf(budget.period, now, budget.time_zone);
    // Rounded as the keeper rounds the limit it refuses at.
    const amount = Math.round(budget.amount_usd * NANOS_PER_USD);
    const spent = await counter.spent(counterKey(budget, window.start));
    const spentOut = spent >= amount;
    return {
      scope: budget.scope, period: budget.period, time_zone: budget.time_zone ?? 'UTC', mode: budget.mode,
      amount_nano_usd: amount, spent_nano_usd: spent, left_nano_usd: Math.max(0, amount - spent),
      used_percent: amount > 0 ? Math.round((spent / amount) * 1000) / 10 : 0,
      state: !spentOut ? 'ok' : budget.mode === 'hard' ? 'over' : 'warning',
      period_start: window.start.toISOString(), resets_at: window.end.toISOString(),
    };
  }));
}
