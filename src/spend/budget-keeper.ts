// Budgets per key, team and person (`gw budgets set`). Before a call: every hard budget that
// applies reserves the call's worst case (estimate-worst-case.ts) or refuses it, naming the
// budget and when it resets; soft budgets already spent add a warning. After the call, each
// reservation is settled to the real cost, so concurrent calls overshoot a hard budget by no
// more than their estimates' error. Counts live behind SpendCounter (in process, or Redis with
// --redis); each hold carries the call's id, so the same call's settle replaces exactly its hold.
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors.js';
import type { StoredBudget } from '../state/governance-schema.js';
import { currentPeriodOf } from './budget-period.js';
import { NANOS_PER_USD } from './price-book.js';
import type { SpendCounter } from './spend-counter.js';

export interface BudgetSubject {
  team: string;
  keyId: string | null;
  /** The human from device login (never a session token). */
  person: string | null;
}

export interface BudgetAdmission {
  /** Soft budgets already spent: one line each, for the response header and the audit warnings. */
  warnings: string[];
  /** The worst case held against the hard budgets (nano-USD; 0 when none holds it): what a call cut before its usage is charged at least. */
  held: number;
  /** The call's real cost in nano-USD; null when unknown (the reservation is kept: it is the worst case). */
  settle(actualNanos: number | null): Promise<void>;
}

export interface BudgetKeeper {
  /**
   * `worstCaseNanos` null: the model has no known price (a hard budget then refuses the call).
   * `callId`: the call's request id, the one its trail record carries (a fresh id when none).
   */
  admit(budgets: readonly StoredBudget[], subject: BudgetSubject, worstCaseNanos: number | null, callId?: string): Promise<BudgetAdmission>;
  /** Spend that ran at the provider, not through a held call (a finished batch): added to every budget that applies, never refused. */
  charge(budgets: readonly StoredBudget[], subject: BudgetSubject, nanos: number, callId?: string): Promise<void>;
}

const NO_BUDGET: BudgetAdmission = { warnings: [], held: 0, settle: async () => {} };

export function budgetApplies(budget: StoredBudget, subject: BudgetSubject): boolean {
  const [kind, name] = [budget.scope.slice(0, budget.scope.indexOf(':')), budget.scope.slice(budget.scope.indexOf(':') + 1)];
  if (kind === 'team') return name === subject.team;
  if (kind === 'key') return name === subject.keyId;
  if (kind === 'person') return name === subject.person;
  return false;
}

/** The counter key of a budget's current period: a new period starts a new count. */
export function counterKey(budget: StoredBudget, periodStart: Date): string {
  return `${budget.scope}/${budget.period}/${budget.time_zone ?? 'UTC'}|${periodStart.toISOString()}`;
}

export function createBudgetKeeper(counter: SpendCounter, now: () => Date): BudgetKeeper {
  return {
    async charge(budgets, subject, nanos, callId = randomUUID()) {
      const at = now();
      await Promise.all(budgets.filter((budget) => budgetApplies(budget, subject)).map((budget) =>
        counter.settle(counterKey(budget, currentPeriodOf(budget.period, at, budget.time_zone).start), callId, nanos)));
    },
    async admit(budgets, subject, worstCaseNanos, callId = randomUUID()) {
      const applying = budgets.filter((budget) => budgetApplies(budget, subject));
      if (applying.length === 0) return NO_BUDGET;
      const at = now();
      const held: Array<{ key: string; reserved: number }> = [];
      const warnings: string[] = [];
      try {
        for (const budget of applying) {
          const window = currentPeriodOf(budget.period, at, budget.time_zone);
          const key = counterKey(budget, window.start);
          const limit = Math.round(budget.amount_usd * NANOS_PER_USD);
          if (budget.mode === 'soft') {
            const spent = await counter.spent(key);
            if (spent >= limit) warnings.push(`${describe(budget)} spent (${usd(spent)}); resets ${window.end.toISOString()}`);
            held.push({ key, reserved: 0 });
            continue;
          }
          if (worstCaseNanos === null) throw new GatewayError('GW_ERR_BUDGET_UNPRICED', { message: `Budget ${describe(budget)} is hard, and this model has no known price: gw prices set gives it one.` });
          if (!(await counter.reserve(key, callId, worstCaseNanos, limit))) throw await refusal(budget, counter, key, limit, worstCaseNanos, window.end, at);
          held.push({ key, reserved: worstCaseNanos });
        }
      } catch (error) {
        await Promise.all(held.filter((hold) => hold.reserved > 0).map((hold) => counter.settle(hold.key, callId, 0)));
        throw error;
      }
      let settled = false;
      return {
        warnings,
        held: Math.max(0, ...held.map((hold) => hold.reserved)),
        async settle(actual) {
          if (settled) return;
          settled = true;
          await Promise.all(held.map((hold) => counter.settle(hold.key, callId, actual ?? hold.reserved)));
        },
      };
    },
  };
}

async function refusal(budget: StoredBudget, counter: SpendCounter, key: string, limit: number, worstCase: number, resets: Date, at: Date): Promise<GatewayError> {
  const left = Math.max(0, limit - (await counter.spent(key)));
  // A call whose worst case is more than the whole budget never passes, reset or not: no retry-after then.
  if (worstCase > limit) {
    return new GatewayError('GW_ERR_BUDGET_EXCEEDED', {
      message: `Budget ${describe(budget)} has ${usd(left)} left; this call may cost up to ${usd(worstCase)}, more than the whole budget: ask for fewer tokens (max_tokens) or a larger budget.`,
      headers: { 'x-should-retry': 'false' },
    });
  }
  const seconds = Math.max(1, Math.ceil((resets.getTime() - at.getTime()) / 1000));
  // Nothing left says so plainly (a call whose cost is unknown beforehand holds a token amount).
  const why = left === 0 ? 'is spent' : `has ${usd(left)} left; this call may cost up to ${usd(worstCase)}`;
  return new GatewayError('GW_ERR_BUDGET_EXCEEDED', {
    message: `Budget ${describe(budget)} ${why}. It resets at ${resets.toISOString()}.`,
    // retry-after says when it can pass again; x-should-retry: false tells the OpenAI and Anthropic SDKs not to wait for it.
    headers: { 'retry-after': String(seconds), 'x-should-retry': 'false' },
  });
}

/** `team:eng ($5.00 a day, hard, UTC)`. */
export function describe(budget: StoredBudget): string {
  return `${budget.scope} (${usd(budget.amount_usd * NANOS_PER_USD)} a ${budget.period}, ${budget.mode}, ${budget.time_zone ?? 'UTC'})`;
}

/** nano-USD → `$0.0123` (cents, or four significant decimals below a cent). */
export function usd(nanos: number): string {
  const dollars = nanos / NANOS_PER_USD;
  return dollars >= 0.01 || dollars === 0 ? `$${dollars.toFixed(2)}` : `$${dollars.toPrecision(2)}`;
}
