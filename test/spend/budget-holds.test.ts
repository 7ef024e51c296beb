// Holds by call id (issue 26): the keeper passes each call's id to the counter, so a settle
// replaces exactly that call's hold (not "some hold of this size"), a refusal by one budget
// releases what the others held for that call only, and a charge adds under its own id. The
// trail sums that reconcile a shared counter give every budget's key (0 when nothing was
// recorded) and the ids of the recent records.
import { describe, expect, it } from 'vitest';
import { createBudgetKeeper } from '../../src/spend/budget-keeper.js';
import { createMemorySpendCounter, type SpendCounter } from '../../src/spend/spend-counter.js';
import { sumTrail } from '../../src/spend/sum-trail.js';
import type { StoredBudget } from '../../src/state/governance-schema.js';

const USD = 1e9;
const subject = { team: 'eng', keyId: 'vk_1', person: null };
const team: StoredBudget = { scope: 'team:eng', amount_usd: 1, period: 'day', mode: 'hard' };
const teamKey = 'team:eng/day/UTC|2026-11-25T00:00:00.000Z';
const now = () => new Date('2026-11-25T12:00:00Z');

/** The memory counter, noting every call made to it. */
function recording(): { counter: SpendCounter; calls: string[] } {
  const inner = createMemorySpendCounter();
  const calls: string[] = [];
  return {
    calls,
    counter: {
      ...inner,
      reserve: (key, callId, nanos, limit) => { calls.push(`reserve ${callId} ${nanos}`); return inner.reserve(key, callId, nanos, limit); },
      settle: (key, callId, actual) => { calls.push(`settle ${callId} ${actual}`); return inner.settle(key, callId, actual); },
    },
  };
}

describe('holds by call id', () => {
  it('each settle replaces its own call’s hold, whatever the order', async () => {
    const { counter, calls } = recording();
    const keeper = createBudgetKeeper(counter, now);
    const big = await keeper.admit([team], subject, 0.5 * USD, 'req_big');
    const small = await keeper.admit([team], subject, 0.1 * USD, 'req_small');
    await small.settle(0.02 * USD);
    // The small call settled: the big one's 0.5 is still held, not 0.1.
    expect(await counter.spent(teamKey)).toBe(0.52 * USD);
    await big.settle(0.3 * USD);
    expect(await counter.spent(teamKey)).toBe(0.32 * USD);
    // Settling again changes nothing (the keeper settles once).
    await big.settle(0.3 * USD);
    expect(await counter.spent(teamKey)).toBe(0.32 * USD);
    expect(calls).toEqual(['reserve req_big 500000000', 'reserve req_small 100000000', 'settle req_small 20000000', 'settle req_big 300000000']);
  });

  it('a refusal by one budget releases the others’ holds of that call only', async () => {
    const { counter, calls } = recording();
    const keeper = createBudgetKeeper(counter, now);
    const tight: StoredBudget = { scope: 'key:vk_1', amount_usd: 0.25, period: 'day', mode: 'hard' };
    await keeper.admit([team], subject, 0.2 * USD, 'req_other');
    await expect(keeper.admit([team, tight], subject, 0.3 * USD, 'req_refused')).rejects.toMatchObject({ code: 'GW_ERR_BUDGET_EXCEEDED' });
    expect(await counter.spent(teamKey)).toBe(0.2 * USD);
    expect(calls.at(-1)).toBe('settle req_refused 0');
  });

  it('a call without an id gets a fresh one; a charge adds under its own id', async () => {
    const { counter, calls } = recording();
    const keeper = createBudgetKeeper(counter, now);
    await keeper.admit([team], subject, 0.1 * USD);
    await keeper.charge([team], subject, 0.05 * USD, 'req_batch');
    expect(calls[0]).toMatch(/^reserve [0-9a-f-]{36} 100000000$/);
    expect(calls[1]).toBe('settle req_batch 50000000');
    expect(await counter.spent(teamKey)).toBe(0.15 * USD);
  });
});

describe('trail sums for reconciliation', () => {
  it('every budget’s current key (0 when nothing was recorded), and the ids of the recent records that counted', async () => {
    const person: StoredBudget = { scope: 'person:ada@example.com', amount_usd: 5, period: 'month', mode: 'hard' };
    const records = [
      { ts: '2026-11-24T23:00:00.000Z', request_id: 'req_yesterday', team: 'eng', cost: { nano_usd: 7, price: 'dataset' as const } },
      { ts: '2026-11-25T11:00:00.000Z', request_id: 'req_old', team: 'eng', cost: { nano_usd: 5, price: 'dataset' as const } },
      { ts: '2026-11-25T11:59:30.000Z', request_id: 'req_recent', team: 'eng', cost: { nano_usd: 3, price: 'dataset' as const } },
      { ts: '2026-11-25T11:59:40.000Z', request_id: 'req_unpriced', team: 'eng', cost: { price: 'unknown' as const } },
      { ts: '2026-11-25T11:59:50.000Z', request_id: 'req_ops', team: 'ops', cost: { nano_usd: 11, price: 'dataset' as const } },
    ];
    async function* trail() { yield* records; }
    const sums = await sumTrail([team, person], trail() as never, now(), new Date('2026-11-25T11:59:00Z'));
    expect([...sums.totals]).toEqual([[teamKey, 8], ['person:ada@example.com/month/UTC|2026-11-01T00:00:00.000Z', 0]]);
    expect([...sums.recentIds]).toEqual([[teamKey, ['req_recent']]]);
    expect(sums.counted).toBe(2);
  });
});
