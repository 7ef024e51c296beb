// gw usage's sums: exact (integer nano-USD), unpriced calls apart, by every grouping.
import { describe, expect, it } from 'vitest';
import { summariseUsage, USAGE_GROUPINGS } from '../../src/spend/usage-report.js';

const records = Array.from({ length: 200 }, (_, index) => ({
  ts: `2026-11-${String(10 + (index % 5)).padStart(2, '0')}T12:00:00.000Z`,
  team: ['eng', 'ops'][index % 2], key_id: `vk_${index % 3}`, person: index % 4 === 0 ? undefined : `p${index % 4}@example.com`,
  model: ['gpt-4o', 'claude-sonnet-4-5', 'local/llama'][index % 3], provider: ['openai', 'anthropic', 'local'][index % 3],
  session: index % 5 === 0 ? undefined : `sess-${index % 4}`,
  tokens: { input: index, output: 2 * index, cached_read: index % 7 },
  cost: index % 3 === 2 ? { price: 'unknown' as const } : { nano_usd: 1_000 + index * 37, price: 'dataset' as const },
}));
const total = records.reduce((sum, record) => sum + (record.cost.nano_usd ?? 0), 0);

describe('summariseUsage', () => {
  for (const by of USAGE_GROUPINGS) {
    it(`--by ${by}: rows add up to the records`, async () => {
      const rows = await summariseUsage(records, by);
      expect(rows.reduce((sum, row) => sum + row.cost_nano_usd, 0)).toBe(total);
      expect(rows.reduce((sum, row) => sum + row.calls, 0)).toBe(records.length);
      expect(rows.reduce((sum, row) => sum + row.unpriced_calls, 0)).toBe(records.filter((record) => record.cost.price === 'unknown').length);
      expect(rows.reduce((sum, row) => sum + row.output_tokens, 0)).toBe(records.reduce((sum, record) => sum + record.tokens.output, 0));
    });
  }

  it('--by session: a session\'s calls together, calls without one apart', async () => {
    const rows = await summariseUsage(records, 'session');
    expect(rows.map((row) => row.group).sort()).toEqual(['(no session)', 'sess-0', 'sess-1', 'sess-2', 'sess-3']);
    expect(rows.find((row) => row.group === '(no session)')!.calls).toBe(records.filter((record) => record.session === undefined).length);
  });

  it('since/until bound the time; person narrows to one human', async () => {
    const rows = await summariseUsage(records, 'day', { since: new Date('2026-11-11T00:00:00Z'), until: new Date('2026-11-13T00:00:00Z'), person: 'p1@example.com' });
    expect(rows.map((row) => row.group).sort()).toEqual(['2026-11-11', '2026-11-12']);
    const expected = records.filter((record) => record.person === 'p1@example.com' && record.ts >= '2026-11-11' && record.ts < '2026-11-13');
    expect(rows.reduce((sum, row) => sum + row.calls, 0)).toBe(expected.length);
  });
});

describe('the hub\'s own control-plane calls', () => {
  it('a sidecar pushing its audit checkpoint is recorded but is not usage', async () => {
    const pushes = Array.from({ length: 5 }, (_, index) => ({ ts: `2026-11-10T13:00:0${index}.000Z`, team: 'eng', person: 'p1@example.com', operation: 'hub.witness.push', status: 200 }));
    const rows = await summariseUsage([...records, ...pushes], 'person');
    expect(rows.reduce((sum, row) => sum + row.calls, 0)).toBe(records.length);
    expect(rows.find((row) => row.group === 'p1@example.com')!.calls).toBe(records.filter((record) => record.person === 'p1@example.com').length);
  });
});
