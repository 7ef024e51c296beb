// What `gw providers add` says when the new provider takes bare model names (gpt-5,
// claude-…, gemini-…) that another provider answered: the route changes silently
// otherwise (a `--kind openai` vLLM would answer every gpt- call). Worked out with the
// gateway's own resolveModel over the providers before and after, from this environment.
import { resolveProviders } from '../../config/resolve-providers.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { PREFIX_RULES } from '../../routing/well-known-models.js';
import type { ProviderConfig } from '../../providers/provider-adapter.js';
import type { ProviderRecord } from '../../state/schema.js';

/** A name each rule matches: `gpt-` → `gpt-x`, `o3` → `o3`. */
function sampleOf(label: string): string {
  return label.endsWith('-') ? `${label}x` : label;
}

/** The hub a sidecar forwards to (gw login, GW_TOKEN): it answers what no local provider takes, as in gateway-mode.ts. */
export interface TakeoverContext { env: NodeJS.ProcessEnv; hub: string | null }

function answeredBy(model: string, records: readonly ProviderRecord[], where: TakeoverContext): string | null {
  const local = resolveProviders({ env: where.env, state: { providers: records }, ignoreEnvironmentProviders: where.hub !== null }).providers;
  const hub: ProviderConfig[] = where.hub === null ? [] : [{ name: 'hub', kind: 'gateway', baseUrl: where.hub, apiKey: null, source: 'built-in' }];
  try {
    return resolveModel(model, [...local, ...hub], {}).provider.name;
  } catch {
    return null;
  }
}

/** One line per provider that loses names to `added`; empty when none change hands. */
export function describeTakeover(before: readonly ProviderRecord[], added: ProviderRecord, where: TakeoverContext): string[] {
  const after = [...before.filter((record) => record.name !== added.name), added];
  const lost = new Map<string, string[]>();
  for (const rule of PREFIX_RULES) {
    const sample = sampleOf(rule.label);
    const was = answeredBy(sample, before, where);
    if (was === null || was === added.name || answeredBy(sample, after, where) !== added.name) continue;
    lost.set(was, [...(lost.get(was) ?? []), rule.label.endsWith('-') ? `${rule.label}…` : rule.label]);
  }
  return [...lost].map(([was, labels]) => `model names ${labels.join(', ')} now route to ${added.name} instead of ${was === 'hub' ? 'the hub' : was}: `
    + `${was === 'hub' ? '' : `name them ${was}/MODEL to keep them there, or `} add ${added.name} with --kind openai-compatible (it then answers only ${added.name}/MODEL)`);
}
