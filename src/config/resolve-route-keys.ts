// Routing targets may carry their own provider key (`env:NAME` or a literal), so
// one provider can be spread over several keys. `env:` references are read from
// gw's environment here, the only folder that reads it; the rest of gw sees keys.
import type { RouteRule } from '../routing/route-rule.js';
import { readEnvReference } from '../state/providers.js';
import type { Environment } from './providers-from-env.js';

/** Each target's `key` as written → the key itself; references that are not set are left out (and warned). */
export function resolveRouteKeys(routes: readonly RouteRule[], env: Environment): { keys: Record<string, string>; warnings: string[] } {
  const keys: Record<string, string> = {};
  const warnings: string[] = [];
  for (const route of routes) {
    for (const target of route.targets) {
      if (target.key === undefined || Object.hasOwn(keys, target.key)) continue;
      const variable = readEnvReference(target.key);
      const value = variable === null ? target.key : env[variable];
      if (value) keys[target.key] = value;
      else warnings.push(`route ${route.name}: target ${target.model} names ${target.key}, which is not set; that target is skipped`);
    }
  }
  return { keys, warnings };
}
