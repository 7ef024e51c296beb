// Budget periods (calendar-aligned, time zones, DST) and the keeper's reserve/settle rules,
// with an injected clock: a refusal names the budget and its reset, the next period starts
// from 0, concurrent reservations cannot pass together, soft budgets warn only.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { createBudgetKeeper } from '../../src/spend/budget-keeper.js';
import { currentPeriodOf, periodOf } from '../../src/spend/budget-period.js';
import { DEFAULT_OUTPUT_TOKENS, estimateWorstCase } from '../../src/spend/estimate-worst-case.js';
import { createMemorySpendCounter } from '../../src/spend/spend-counter.js';
import { rebuildCounters } from '../../src/spend/spend-services.js';
import type { StoredBudget } from '../../src/state/governance-schema.js';

const iso = (date: Date) => date.toISOString();

describe('periodOf', () => {
  const now = new Date('2026-11-25T15:30:00Z'); // a Wednesday
  it('UTC day, ISO week (from Monday) and month', () => {
    expect([periodOf('day', now)].map(({ start, end }) => [iso(start), iso(end)])).toEqual([['2026-11-25T00:00:00.000Z', '2026-11-26T00:00:00.000Z']]);
    expect(iso(periodOf('week', now).start)).toBe('2026-11-23T00:00:00.000Z');
    expect(iso(periodOf('week', now).end)).toBe('2026-11-30T00:00:00.000Z');
    expect(iso(periodOf('month', now).start)).toBe('2026-11-01T00:00:00.000Z');
    expect(iso(periodOf('month', new Date('2026-12-31T23:59:59Z')).end)).toBe('2027-01-01T00:00:00.000Z');
  });

  it('in a time zone: local midnight, and a 23-hour day when the clocks go forward', () => {
    // Tokyo is UTC+9: 15:30 UTC is already the 26th there.
    expect(iso(periodOf('day', now, 'Asia/Tokyo').start)).toBe('2026-11-25T15:00:00.000Z');
    // Europe/Paris went from UTC+1 to UTC+2 on 2026-03-29.
    const spring = periodOf('day', new Date('2026-03-29T12:00:00Z'), 'Europe/Paris');
    expect(iso(spring.start)).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(spring.end)).toBe('2026-03-29T22:00:00.000Z');
    expect(iso(periodOf('month', new Date('2026-11-01T00:30:00Z'), 'America/New_York').start)).toBe('2026-10-01T04:00:00.000Z');
  });

  it('currentPeriodOf reuses a window only while now is inside it: equal to periodOf hour by hour over a DST change', () => {
    for (const [period, zone] of [['day', 'Europe/Paris'], ['week', 'UTC'], ['month', 'America/New_York']] as const) {
      for (let hour = 0; hour < 24 * 40; hour += 1) {
        const at = new Date(Date.parse('2026-03-01T00:00:00Z') + hour * 3_600_000);
        const cached = currentPeriodOf(period, at, zone);
        const fresh = periodOf(period, at, zone);
        expect([iso(cached.start), iso(cached.end)], `${period} ${zone} ${iso(at)}`).toEqual([iso(fresh.start), iso(fresh.end)]);
      }
    }
    // …and going back in time (an injected clock) finds the earlier window again.
    expect(iso(currentPeriodOf('day', new Date('2026-03-02T12:00:00Z'), 'Europe/Paris').start)).toBe('2026-03-01T23:00:00.000Z');
  });
});

describe('budget keeper', () => {
  const hard: StoredBudget = { scope: 'team:eng', amount_usd: 1, period: 'day', mode: 'hard' };
  const subject = { team: 'eng', keyId: 'vk_1', person: 'ada@example.com' };
  const USD = 1e9;

  it('refuses what would pass the budget, naming it and its reset with retry-after; the next day starts from 0', async () => {
    let now = new Date('2026-11-25T23:00:00Z');
    const keeper = createBudgetKeeper(createMemorySpendCounter(), () => now);
    const first = await keeper.admit([hard], subject, 0.6 * USD);
    await first.settle(0.5 * USD);
    const refusal = await keeper.admit([hard], subject, 0.6 * USD).catch((error: unknown) => error) as GatewayError;
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal.code).toBe('GW_ERR_BUDGET_EXCEEDED');
    expect(refusal.message).toBe('Budget team:eng ($1.00 a day, hard, UTC) has $0.50 left; this call may cost up to $0.60. It resets at 2026-11-26T00:00:00.000Z.');
    expect(refusal.headers['retry-after']).toBe('3600');
    now = new Date('2026-11-26T00:00:01Z');
    await expect(keeper.admit([hard], subject, 0.6 * USD)).resolves.toBeDefined();
  });

  it('a finished batch\'s spend is charged to every budget that applies, even past its limit, and later calls see it', async () => {
    const keeper = createBudgetKeeper(createMemorySpendCounter(), () => new Date('2026-11-25T12:00:00Z'));
    const otherTeam: StoredBudget = { scope: 'team:ops', amount_usd: 1, period: 'day', mode: 'hard' };
    await keeper.charge([hard, otherTeam], subject, 1.2 * USD);
    const refusal = await keeper.admit([hard], subject, 0.01 * USD).catch((error: unknown) => error) as GatewayError;
    expect(refusal.code).toBe('GW_ERR_BUDGET_EXCEEDED');
    expect(refusal.message).toContain('$1.00 a day, hard, UTC) is spent. It resets at');
    await expect(keeper.admit([otherTeam], { ...subject, team: 'ops' }, 0.9 * USD)).resolves.toBeDefined();
  });

  it('concurrent reservations cannot pass together; settling frees what was not spent', async () => {
    const keeper = createBudgetKeeper(createMemorySpendCounter(), () => new Date('2026-11-25T12:00:00Z'));
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => keeper.admit([hard], subject, 0.3 * USD)));
    const admitted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(admitted).toHaveLength(3);
    for (const outcome of admitted) await outcome.value.settle(0.1 * USD);
    // 0.3 spent: 0.7 left, room for two more worst cases of 0.3.
    await keeper.admit([hard], subject, 0.3 * USD);
    await keeper.admit([hard], subject, 0.3 * USD);
    await expect(keeper.admit([hard], subject, 0.3 * USD)).rejects.toThrow(/has \$0\.10 left/);
  });

  it('a refusal by one budget releases what the others held', async () => {
    const counter = createMemorySpendCounter();
    const keeper = createBudgetKeeper(counter, () => new Date('2026-11-25T12:00:00Z'));
    const roomy: StoredBudget = { scope: 'key:vk_1', amount_usd: 100, period: 'month', mode: 'hard' };
    const tight: StoredBudget = { scope: 'person:ada@example.com', amount_usd: 0.1, period: 'week', mode: 'hard' };
    await expect(keeper.admit([roomy, tight], subject, 0.2 * USD)).rejects.toThrow(/person:ada@example.com/);
    expect(await counter.spent('key:vk_1/month/UTC|2026-11-01T00:00:00.000Z')).toBe(0);
  });

  it('an unknown price cannot be held against a hard budget; budgets of others do not apply', async () => {
    const keeper = createBudgetKeeper(createMemorySpendCounter(), () => new Date());
    await expect(keeper.admit([hard], subject, null)).rejects.toMatchObject({ code: 'GW_ERR_BUDGET_UNPRICED' });
    await expect(keeper.admit([hard], { ...subject, team: 'other' }, null)).resolves.toMatchObject({ warnings: [] });
  });

  it('soft budgets never refuse: they warn once spent', async () => {
    const soft: StoredBudget = { ...hard, mode: 'soft' };
    const keeper = createBudgetKeeper(createMemorySpendCounter(), () => new Date('2026-11-25T12:00:00Z'));
    const first = await keeper.admit([soft], subject, 5 * USD);
    expect(first.warnings).toEqual([]);
    await first.settle(1.5 * USD);
    const second = await keeper.admit([soft], subject, null);
    expect(second.warnings).toEqual(['team:eng ($1.00 a day, soft, UTC) spent ($1.50); resets 2026-11-26T00:00:00.000Z']);
  });

  it('counters rebuilt from trail records count only the current period of the budgets they match', async () => {
    const counter = createMemorySpendCounter();
    const now = new Date('2026-11-25T12:00:00Z');
    const records = [
      { ts: '2026-11-24T23:59:59.000Z', team: 'eng', cost: { nano_usd: 7, price: 'dataset' as const } },
      { ts: '2026-11-25T00:00:00.000Z', team: 'eng', cost: { nano_usd: 5, price: 'dataset' as const } },
      { ts: '2026-11-25T10:00:00.000Z', team: 'ops', cost: { nano_usd: 11, price: 'dataset' as const } },
      { ts: '2026-11-25T11:00:00.000Z', team: 'eng', cost: { price: 'unknown' as const } },
    ];
    expect(await rebuildCounters([hard], records as never, counter, now)).toBe(1);
    expect(await counter.spent('team:eng/day/UTC|2026-11-25T00:00:00.000Z')).toBe(5);
  });
});

describe('worst case', () => {
  it('input at four bytes a token plus the output cap, at the dearest rates', () => {
    const rates = { input: 3 / 1e6, output: 15 / 1e6 };
    // 4,000 bytes → 1,000 tokens × $3/M + 500 × $15/M = 0.003 + 0.0075 = $0.0105
    expect(estimateWorstCase(rates, 4000, { max_tokens: 500 })).toBe(10_500_000);
    expect(estimateWorstCase(rates, 4000, { generationConfig: { maxOutputTokens: 500 } })).toBe(10_500_000);
    expect(estimateWorstCase(rates, 4000, { inferenceConfig: { maxTokens: 500 } })).toBe(10_500_000);
    expect(estimateWorstCase(rates, 0, {})).toBe(DEFAULT_OUTPUT_TOKENS * 15_000);
  });
});
