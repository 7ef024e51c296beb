// Whether gw adds a prompt-cache marker to a call (docs/prompt-cache.md): the `cache_marker` of
// the most specific policy that sets it (key, then team, then *); off when none does. A marker
// is a cost decision (cache writes cost more than plain input), so it is never on by default.
import type { PolicyRecord } from './policy-record.js';

export function cacheMarkerOn(policies: readonly PolicyRecord[]): boolean {
  // The common case: no policy at all, or none that names the setting.
  if (policies.length === 0) return false;
  let decided: { rank: number; on: boolean } | null = null;
  for (const policy of policies) {
    if (policy.cache_marker === undefined) continue;
    const rank = policy.scope.startsWith('key:') ? 2 : policy.scope.startsWith('team:') ? 1 : 0;
    if (decided === null || rank > decided.rank) decided = { rank, on: policy.cache_marker === 'on' };
  }
  return decided?.on ?? false;
}
