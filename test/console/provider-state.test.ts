import { describe, expect, it } from 'vitest';
// The console's own module, as the hub serves it (no build step).
import { listedState, providerState } from '../../console/pages/provider-state.js';

describe('providerState', () => {
  it('calls a provider that failed every call failing, however few the calls', () => {
    expect(providerState({ requests: 3, errors: 3 })).toEqual({ level: 'error', text: 'failing: every call failed (3 of 3)' });
  });

  it('does not call one 5xx in 17 failing: a rate needs volume', () => {
    expect(providerState({ requests: 17, errors: 1 })).toEqual({ level: 'warn', text: 'some errors: 1 of 17 calls failed' });
    expect(providerState({ requests: 4, errors: 2 }).level).toBe('warn');
  });

  it('calls a rate above 20% over at least 10 calls failing', () => {
    expect(providerState({ requests: 10, errors: 3 }).level).toBe('error');
    expect(providerState({ requests: 10, errors: 2 }).level).toBe('warn');
  });

  it('gives no verdict without calls, and healthy without errors', () => {
    expect(providerState({ requests: 0, errors: 0 }).level).toBe('none');
    expect(providerState(undefined).level).toBe('none');
    expect(providerState({ requests: 5, errors: 0 })).toEqual({ level: 'ok', text: 'healthy' });
  });
});

describe('listedState', () => {
  it('is green "in use" only when the provider\'s calls succeed', () => {
    expect(listedState(true, { requests: 2, errors: 2 })).toEqual({ level: 'error', text: 'in use, failing: every call failed (2 of 2)' });
    expect(listedState(true, undefined)).toEqual({ level: 'none', text: 'in use (no calls in the last hour)' });
    expect(listedState(true, { requests: 2, errors: 0 })).toEqual({ level: 'ok', text: 'in use, healthy' });
    expect(listedState(false, undefined).text).toBe('skipped');
  });
});
