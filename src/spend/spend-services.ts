// What a running gw holds for spend: the price book, the budget keeper and its counter.
// Built once by the composition root (src/gateway); the counters are rebuilt from the audit
// trail at start (rebuildCounters), so budgets survive a restart without a file of their own.
import type { StoredBudget, StoredPrice } from '../state/governance-schema.js';
import { createBudgetKeeper, type BudgetKeeper } from './budget-keeper.js';
import { periodOf } from './budget-period.js';
import { createPriceBook, type PriceBook } from './price-book.js';
import type { RequestRecord } from './read-trail.js';
import { createMemorySpendCounter, type SpendCounter } from './spend-counter.js';
import { sumTrail } from './sum-trail.js';

export interface SpendServices {
  prices: PriceBook;
  budgets: BudgetKeeper;
  counter: SpendCounter;
}

export function createSpendServices(options: { overrides: () => readonly StoredPrice[]; now: () => Date; counter?: SpendCounter }): SpendServices {
  const counter = options.counter ?? createMemorySpendCounter();
  return { prices: createPriceBook(options.overrides), budgets: createBudgetKeeper(counter, options.now), counter };
}

/** The earliest start of any budget's current period: how far back the trail must be read. */
export function earliestPeriodStart(budgets: readonly StoredBudget[], now: Date): Date | null {
  const starts = budgets.map((budget) => periodOf(budget.period, now, budget.time_zone).start.getTime());
  return starts.length > 0 ? new Date(Math.min(...starts)) : null;
}

/** Seeds each budget's current period with the costs recorded in it. Returns the records counted. */
export async function rebuildCounters(budgets: readonly StoredBudget[], records: AsyncIterable<RequestRecord>, counter: SpendCounter, now: Date): Promise<number> {
  const { totals, counted } = await sumTrail(budgets, records, now);
  // One seed per period: the count becomes at least what the trail holds.
  for (const [key, nanos] of totals) if (nanos > 0) await counter.seed(key, nanos);
  return counted;
}
