// Policy decisions and the limiter, with an injected clock.
import { describe, expect, it } from 'vitest';
import { evaluateAccess, refuseProvider } from '../../src/policy/evaluate-policy.js';
import { RateLimiter } from '../../src/policy/rate-limiter.js';
import { backoffMs, planAttempts } from '../../src/routing/plan-attempts.js';

describe('access', () => {
  it('deny wins, allow lists restrict, caps refuse, and each reason names its scope', () => {
    const records = [{ scope: 'team:a', allow_models: ['openai/*'], deny_models: ['openai/o1*'], max_tokens: 100 }];
    expect(evaluateAccess(records, { model: 'openai/gpt-4o', operation: 'chat.completions', maxTokens: 50 })).toEqual([]);
    expect(evaluateAccess(records, { model: 'openai/o1-pro', operation: 'chat.completions', maxTokens: null })[0]!.reason).toMatch(/team:a.*deny_models/);
    expect(evaluateAccess(records, { model: 'claude-x', operation: 'messages', maxTokens: null })[0]!.reason).toMatch(/allow_models/);
    expect(evaluateAccess(records, { model: 'openai/gpt-4o', operation: 'chat.completions', maxTokens: 500 })[0]!.reason).toMatch(/over the cap of 100/);
    expect(refuseProvider([{ scope: '*', deny_providers: ['gemini'] }], 'gemini')?.reason).toMatch(/deny_providers/);
    expect(refuseProvider([{ scope: '*', mode: 'shadow', allow_providers: ['openai'] }], 'gemini')?.shadow).toBe(true);
  });
});

describe('rate limiter', () => {
  it('N admissions against M per minute: exactly M pass; room returns as the window slides', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const spec = [{ scope: 'team:a', requestsPerMinute: 3, shadow: false }];
    const results = Array.from({ length: 10 }, () => limiter.admit(spec, 1).refusals.length === 0);
    expect(results.filter(Boolean)).toHaveLength(3);
    const refusal = limiter.admit(spec, 1).refusals[0]!;
    expect(refusal.retryAfterSeconds).toBe(60);
    now = 60_001;
    expect(limiter.admit(spec, 1).refusals).toEqual([]);
  });

  it('tokens per minute: taken at the estimate, corrected by usage', () => {
    const limiter = new RateLimiter(() => 0);
    const spec = [{ scope: 'key:vk_1', tokensPerMinute: 1000, shadow: false }];
    const first = limiter.admit(spec, 900);
    expect(limiter.admit(spec, 200).refusals).toHaveLength(1);
    first.settle(100);
    expect(limiter.admit(spec, 200).refusals).toEqual([]);
  });

  it('shadow records a refusal and lets the request through', () => {
    const limiter = new RateLimiter(() => 0);
    const spec = [{ scope: '*', requestsPerMinute: 1, shadow: true }];
    limiter.admit(spec, 1);
    expect(limiter.admit(spec, 1).refusals[0]!.shadow).toBe(true);
  });
});

describe('routing plans', () => {
  const rule = { name: 'r', targets: [{ model: 'a/x', weight: 3 }, { model: 'b/y', weight: 1 }], retries: 1 };
  it('a session sticks to one first target; the rest follow as fallbacks, each with its retries', () => {
    const first = planAttempts(rule, { random: () => 0.99, sessionId: 'session-1' });
    for (let index = 0; index < 5; index += 1) expect(planAttempts(rule, { random: Math.random, sessionId: 'session-1' })).toEqual(first);
    expect(first.map((attempt) => `${attempt.target.model}#${attempt.retry}`)).toHaveLength(4);
  });
  it('weights split the first pick', () => {
    expect(planAttempts(rule, { random: () => 0.5, sessionId: null })[0]!.target.model).toBe('a/x');
    expect(planAttempts(rule, { random: () => 0.9, sessionId: null })[0]!.target.model).toBe('b/y');
  });
  it('backoff honours retry-after up to a bound, else full jitter', () => {
    expect(backoffMs(1, 2, () => 0.5)).toBe(2000);
    expect(backoffMs(1, 60, () => 0.5)).toBe(5000);
    expect(backoffMs(3, null, () => 0.5)).toBe(500);
  });
});
