// A provider's state from what callers got over a window (issue 40: health that reflects
// reachability and volume). The rule, as docs/console.md states it: no calls, no verdict; every
// call failed (a provider refusing connections, or down) is failing; otherwise a rate is judged
// only over at least MIN_CALLS calls (one 5xx in 17 is "some errors", not "failing"). Pure: no
// imports, so the unit tier tests it as it is served.

/** Fewer calls than this say too little for a failure rate to call a provider failing. */
export const MIN_CALLS = 10;
/** Over MIN_CALLS or more, a share of 5xx above this is failing. */
export const FAILING_RATE = 0.2;

/** { level: 'ok' | 'warn' | 'error' | 'none', text } for a health row ({ requests, errors }). */
export function providerState(row) {
  const requests = row?.requests ?? 0;
  const errors = row?.errors ?? 0;
  if (requests === 0) return { level: 'none', text: 'no calls' };
  if (errors === requests) return { level: 'error', text: `failing: every call failed (${errors} of ${requests})` };
  if (errors === 0) return { level: 'ok', text: 'healthy' };
  if (requests >= MIN_CALLS && errors / requests > FAILING_RATE) return { level: 'error', text: `failing: ${errors} of ${requests} calls failed` };
  return { level: 'warn', text: `some errors: ${errors} of ${requests} calls failed` };
}

/**
 * The Providers list's status: whether gw serve uses the provider, and, when it does, how its
 * calls went in the last hour. "In use" is green only when its calls succeed.
 */
export function listedState(inUse, row) {
  if (!inUse) return { level: 'warn', text: 'skipped' };
  const state = providerState(row);
  if (state.level === 'none') return { level: 'none', text: 'in use (no calls in the last hour)' };
  return { level: state.level, text: `in use, ${state.text}` };
}
