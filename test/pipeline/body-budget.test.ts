// The in-flight body budget, as pure code.
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/pipeline/door/body-budget.js';

describe('BodyBudget', () => {
  const limits = { total: 100, perKey: 60 };

  it('refuses a credential past its share with 429 and the gateway past its total with 503, holding nothing for a refusal', () => {
    const budget = new BodyBudget(() => limits);
    expect(budget.take('a', 50)).toBeNull();
    const perKey = budget.take('a', 20);
    expect(perKey).toMatchObject({ code: 'GW_ERR_KEY_MEMORY_BUSY', status: 429, headers: { 'retry-after': '1' } });
    expect(budget.take('b', 50)).toBeNull();
    expect(budget.take('c', 1)).toMatchObject({ code: 'GW_ERR_SERVER_MEMORY_BUSY', status: 503, headers: { 'retry-after': '1' } });
    expect(budget.heldBytes).toBe(100);
  });

  it('a hold grows chunk by chunk and gives everything back once, however often it is released', () => {
    const budget = new BodyBudget(() => limits);
    const hold = budget.openHold('a');
    expect(hold.take(30)).toBeNull();
    expect(hold.take(30)).toBeNull();
    expect(hold.take(1)).toMatchObject({ code: 'GW_ERR_KEY_MEMORY_BUSY' });
    expect(hold.bytes).toBe(60);
    hold.release();
    hold.release();
    expect(budget.heldBytes).toBe(0);
    expect(hold.take(10)).toBeNull();
    expect(budget.heldBytes).toBe(0);
    expect(budget.take('a', 60)).toBeNull();
  });

  it('reads the limits on every take, so a settings change applies at once', () => {
    let current = { total: 10, perKey: 10 };
    const budget = new BodyBudget(() => current);
    expect(budget.take('a', 20)).not.toBeNull();
    current = { total: 100, perKey: 100 };
    expect(budget.take('a', 20)).toBeNull();
  });
});
