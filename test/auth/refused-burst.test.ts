import { describe, expect, it } from 'vitest';
import { OVERFLOW_ORIGIN, RefusedBurstTracker, originOf, type RefusalSummary } from '../../src/auth/refused-burst.js';

function tracker(maxOrigins = 10_000) {
  let now = Date.parse('2026-11-21T10:00:00Z');
  const events: Array<[string, RefusalSummary]> = [];
  const burst = new RefusedBurstTracker({ windowMs: 60_000, maxOrigins, now: () => now, emit: (kind, summary) => events.push([kind, summary]) });
  return { burst, events, advance: (ms: number) => { now += ms; } };
}

describe('RefusedBurstTracker', () => {
  it('reports the first refusal at once and 10,000 more as one summary', () => {
    const { burst, events, advance } = tracker();
    for (let i = 0; i < 10_000; i += 1) burst.record('10.0.0.1', '/v1/chat/completions', i % 2 ? 'missing' : 'unknown');
    expect(events.map(([kind]) => kind)).toEqual(['auth.refused']);
    advance(60_000);
    burst.flush();
    expect(events).toHaveLength(2);
    const [kind, summary] = events[1]!;
    expect(kind).toBe('auth.refused_burst');
    expect(summary).toMatchObject({ origin: '10.0.0.1', count: 10_000, paths: ['/v1/chat/completions'], reasons: { missing: 5000, unknown: 5000 } });
  });

  it('writes no summary for a lone refusal, and forgets the origin after its window', () => {
    const { burst, events, advance } = tracker();
    burst.record('10.0.0.2', '/v1/messages', 'missing');
    advance(61_000);
    burst.flush();
    expect(events).toHaveLength(1);
    expect(burst.trackedOrigins).toBe(0);
  });

  it('keeps one summary per window while a burst goes on, with no second immediate event', () => {
    const { burst, events, advance } = tracker();
    burst.record('10.0.0.3', '/a', 'missing');
    burst.record('10.0.0.3', '/a', 'missing');
    advance(60_000); burst.flush();
    burst.record('10.0.0.3', '/b', 'revoked');
    advance(60_000); burst.flush();
    expect(events.map(([kind, summary]) => [kind, summary.count])).toEqual([['auth.refused', 1], ['auth.refused_burst', 2], ['auth.refused_burst', 1]]);
  });

  it('bounds memory: a flood from 10,000 origins past the cap lands in one overflow bucket', () => {
    const { burst, events } = tracker(1000);
    for (let i = 0; i < 11_000; i += 1) burst.record(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, '/v1/models', 'missing');
    expect(burst.trackedOrigins).toBe(1001);
    expect(events.filter(([, summary]) => summary.origin === OVERFLOW_ORIGIN)).toHaveLength(1);
  });

  it('caps the paths it keeps per origin', () => {
    const { burst, advance, events } = tracker();
    for (let i = 0; i < 50; i += 1) burst.record('10.0.0.4', `/p${i}`, 'missing');
    advance(60_000); burst.flush();
    expect(events[1]![1].paths).toHaveLength(10);
  });

  it('flush(all) closes every window at shutdown', () => {
    const { burst, events } = tracker();
    burst.record('10.0.0.5', '/a', 'missing');
    burst.record('10.0.0.5', '/a', 'missing');
    burst.flush(true);
    expect(events.map(([kind]) => kind)).toEqual(['auth.refused', 'auth.refused_burst']);
    expect(burst.trackedOrigins).toBe(0);
  });
});

describe('originOf', () => {
  it('groups IPv6 by /64 and unwraps IPv4-mapped addresses', () => {
    expect(originOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(originOf('2001:db8:1:2:bbbb::9')).toBe('2001:db8:1:2::/64');
    expect(originOf('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(originOf('192.0.2.7')).toBe('192.0.2.7');
  });
});
