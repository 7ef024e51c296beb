// The Keys page's per-key sums over request summaries: last use counts every call, control-plane
// ones too; requests and spend count what usage counts; calls before the window are left out.
import { describe, expect, it } from 'vitest';
import { summarizeKeyUsage, withKeyUsage } from '../../src/admin/key-usage.js';

const calls = [
  { ts: '2026-11-01T10:00:00.000Z', key_id: 'vk_a', cost: { nano_usd: 500 } },
  { ts: '2026-11-20T10:00:00.000Z', key_id: 'vk_a', cost: { nano_usd: 1_200 } },
  { ts: '2026-11-21T09:00:00.000Z', key_id: 'vk_a', cost: { price: 'unknown' } },
  { ts: '2026-11-22T08:00:00.000Z', key_id: 'vk_a', operation: 'hub.witness.push' },
  { ts: '2026-11-21T12:00:00.000Z', key_id: 'vk_b', cost: { nano_usd: 40 } },
  { ts: '2026-11-21T12:30:00.000Z' },
];

describe('summarizeKeyUsage', () => {
  it('sums requests and priced cost per key in the window; a control-plane call is a use, not a request', () => {
    expect(summarizeKeyUsage(calls, '2026-11-10T00:00:00.000Z')).toEqual([
      { key_id: 'vk_a', last_used_at: '2026-11-22T08:00:00.000Z', requests: 2, cost_nano_usd: 1_200 },
      { key_id: 'vk_b', last_used_at: '2026-11-21T12:00:00.000Z', requests: 1, cost_nano_usd: 40 },
    ]);
  });

  it('a key unused in the window has no last use and zeros', () => {
    const rows = withKeyUsage([{ id: 'vk_a' }, { id: 'vk_c' }], summarizeKeyUsage(calls, '2026-11-21T10:00:00.000Z'));
    expect(rows).toEqual([
      { id: 'vk_a', last_used_at: '2026-11-22T08:00:00.000Z', requests: 0, spend_nano_usd: 0 },
      { id: 'vk_c', last_used_at: null, requests: 0, spend_nano_usd: 0 },
    ]);
  });
});
