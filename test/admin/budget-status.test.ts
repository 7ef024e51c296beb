// Budget status (GET /admin/api/budgets/status): each budget's spend read from the counter the
// keeper admits with, under the key of its current period, so what the console shows is what a
// call is refused on; and the file trail's usage report counts unpriced calls in its window.
import { describe, expect, it } from 'vitest';
import { budgetStatus } from '../../src/admin/budget-status.js';
import { summarizeUsage, type RequestSummary } from '../../src/admin/trail-reader.js';
import { createBudgetKeeper } from '../../src/spend/budget-keeper.js';
import { createMemorySpendCounter } from '../../src/spend/spend-counter.js';
import type { StoredBudget } from '../../src/state/governance-schema.js';

const NOW = new Date('2026-11-27T15:00:00Z');
const team: StoredBudget = { scope: 'team:eng', amount_usd: 0.001, period: 'day', mode: 'hard' };
const soft: StoredBudget = { scope: 'person:bo@example.com', amount_usd: 0.0005, period: 'week', time_zone: 'Europe/Paris', mode: 'soft' };

describe('budget status', () => {
  it('shows the spend the keeper counts, what is left, and the period it resets at', async () => {
    const counter = createMemorySpendCounter();
    const keeper = createBudgetKeeper(counter, () => NOW);
    const subject = { team: 'eng', keyId: null, person: 'bo@example.com' };
    await (await keeper.admit([team, soft], subject, 300_000, 'call-1')).settle(250_000);
    // A call still running: its hold counts, as the keeper counts it when it admits the next.
    await keeper.admit([team, soft], subject, 100_000, 'call-2');
    const [eng, bo] = await budgetStatus([team, soft], counter, NOW);
    expect(eng).toMatchObject({ scope: 'team:eng', amount_nano_usd: 1_000_000, spent_nano_usd: 350_000, left_nano_usd: 650_000, used_percent: 35, state: 'ok', period_start: '2026-11-27T00:00:00.000Z', resets_at: '2026-11-28T00:00:00.000Z' });
    // The week from Monday in Paris (UTC+1 in November); a soft budget holds nothing, so only settled calls count.
    expect(bo).toMatchObject({ time_zone: 'Europe/Paris', spent_nano_usd: 250_000, state: 'ok', period_start: '2026-11-22T23:00:00.000Z' });
    await (await keeper.admit([soft], subject, 300_000, 'call-3')).settle(300_000);
    const [, spent] = await budgetStatus([team, soft], counter, NOW);
    expect(spent).toMatchObject({ spent_nano_usd: 550_000, left_nano_usd: 0, state: 'warning', used_percent: 110 });
  });

  it('says over for a hard budget spent', async () => {
    const counter = createMemorySpendCounter();
    const keeper = createBudgetKeeper(counter, () => NOW);
    await keeper.charge([team], { team: 'eng', keyId: null, person: null }, 1_200_000);
    expect((await budgetStatus([team], counter, NOW))[0]).toMatchObject({ left_nano_usd: 0, state: 'over', used_percent: 120 });
  });
});

describe('unpriced calls in the usage report', () => {
  const call = (ts: string, team: string, model: string, cost: unknown): RequestSummary => ({ seq: 0, ts, team, provider: 'mock', model, cost, tokens: { input: 3, output: 4 } });
  const calls = [
    call('2026-11-25T10:00:00.000Z', 'eng', 'echo', { price: 'unknown' }),
    call('2026-11-26T10:00:00.000Z', 'eng', 'echo', { nano_usd: 90, price: 'override' }),
    call('2026-11-26T11:00:00.000Z', 'ops', 'other', { price: 'unknown' }),
    call('2026-11-26T12:00:00.000Z', 'ops', 'echo', undefined),
    call('2026-11-27T00:00:00.000Z', 'ops', 'other', { price: 'unknown' }),
  ];

  it('counts them per group and per day, names their models, and leaves out the window\'s end', () => {
    const report = summarizeUsage(calls, 'team', '2026-11-25T00:00:00.000Z', '2026-11-27T00:00:00.000Z');
    expect(report.groups.map((group) => [group.group, group.requests, group.cost_nano_usd, group.unpriced])).toEqual([['eng', 2, 90, 1], ['ops', 2, 0, 1]]);
    expect(report.daily.map((cell) => [cell.day, cell.group, cell.unpriced])).toEqual([['2026-11-25', 'eng', 1], ['2026-11-26', 'eng', 0], ['2026-11-26', 'ops', 1]]);
    expect(report.unpriced_models).toEqual([{ provider: 'mock', model: 'echo', calls: 1 }, { provider: 'mock', model: 'other', calls: 1 }]);
    expect([report.since, report.until]).toEqual(['2026-11-25T00:00:00.000Z', '2026-11-27T00:00:00.000Z']);
  });

  it('puts a routing rule\'s calls under the model that served them, the rule beside it (issue 40)', () => {
    const ruled: RequestSummary[] = [
      { seq: 1, ts: '2026-11-26T10:00:00.000Z', team: 'eng', provider: 'mock', model: 'mock/echo', rule: 'fast', tokens: { input: 3, output: 4 }, cost: { price: 'unknown', source: 'usage' } },
      { seq: 2, ts: '2026-11-26T11:00:00.000Z', team: 'eng', provider: 'mock', model: 'mock/echo', tokens: { input: 3, output: 4 }, cost: { price: 'unknown', source: 'usage' } },
    ];
    const report = summarizeUsage(ruled, 'model');
    expect(report.groups).toEqual([expect.objectContaining({ group: 'mock/echo', requests: 2, unpriced: 2, rules: ['fast'] })]);
    expect(report.unpriced_models).toEqual([{ provider: 'mock', model: 'mock/echo', calls: 2, rules: ['fast'] }]);
  });
});
