// Routing targets may carry their own provider key (`env:NAME` or a literal), so
// one provider can be spread over several keys. `env:` references are read from
// gw's environment here, the only folder that reads it; the rest of gw sees keys.
// A target's key is bound to the host its provider named when the key was set
// (`key_host`, src/state/bound-host.ts): a provider since moved to another host
// does not get it, and neither does any target sharing the same key as written.
import type { ProviderConfig } from '../providers/provider-adapter.js';
import type { RouteRule } from '../routing/route-rule.js';
import { hostOf } from '../state/bound-host.js';
import { readEnvReference } from '../state/providers.js';
import type { Environment } from './providers-from-env.js';

/** Each target's `key` as written → the key itself; references that are not set, or bound to another host, are left out (and warned). */
export function resolveRouteKeys(routes: readonly RouteRule[], env: Environment, providers: readonly ProviderConfig[] = []): { keys: Record<string, string>; warnings: string[] } {
  const keys: Record<string, string> = {};
  const warnings: string[] = [];
  const moved = movedKeys(routes, providers, warnings);
  for (const route of routes) {
    for (const target of route.targets) {
      if (target.key === undefined || Object.hasOwn(keys, target.key) || moved.has(target.key)) continue;
      const variable = readEnvReference(target.key);
      const value = variable === null ? target.key : env[variable];
      if (value) keys[target.key] = value;
      else warnings.push(`route ${route.name}: target ${target.model} names ${target.key}, which is not set; that target is skipped`);
    }
  }
  return { keys, warnings };
}

/** Keys (as written) some target would send to a host other than the one it was set for: every target using one is skipped. */
function movedKeys(routes: readonly RouteRule[], providers: readonly ProviderConfig[], warnings: string[]): Set<string> {
  const moved = new Set<string>();
  for (const route of routes) {
    for (const target of route.targets) {
      if (target.key === undefined || target.key_host === undefined) continue;
      const name = target.model.slice(0, target.model.indexOf('/'));
      const provider = providers.find((candidate) => candidate.name === name);
      if (provider !== undefined && hostOf(provider.baseUrl) === target.key_host) continue;
      moved.add(target.key);
      warnings.push(`route ${route.name}: target ${target.model}'s key was set for ${target.key_host}, and its provider now names another host (or is gone); that key is not used (give it again with gw routes add)`);
    }
  }
  return moved;
}
