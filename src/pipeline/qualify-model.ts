// The other names of the model a call names, for the model lists: where it resolves,
// provider-qualified (`gpt-4o` → `openai/gpt-4o`, an alias → its target), and the name the
// provider knows (`openai/gpt-4o` → `gpt-4o`). An admin who writes `openai/*` means every
// model OpenAI serves, however the client spelled it; one who writes `gpt-4o` means that
// model whichever prefix the client put before it. Asked only when a model list applies.
import type { PolicyRecord } from '../policy/policy-record.js';
import { hasModelList } from '../policy/evaluate-policy.js';
import { resolveModel } from '../routing/resolve-model.js';
import type { GatewayServices } from './gateway-services.js';

/** The names besides `model` the model lists match; undefined when no list applies or it resolves nowhere. */
export function modelAliasesFor(policies: readonly PolicyRecord[], model: string | null, services: GatewayServices): string[] | undefined {
  if (model === null || model === '' || policies.length === 0 || !hasModelList(policies)) return undefined;
  const set = services.providers();
  // A routing rule's name is checked as written: its targets are its own (gw routes).
  if ((services.state.snapshot().routes ?? []).some((rule) => rule.name === model)) return undefined;
  try {
    const route = resolveModel(model, set.providers, set.aliases);
    // A gateway provider (sidecar mode) resolves the rest on the hub, under the hub's policies.
    if (route.provider.kind === 'gateway') return undefined;
    return qualifiedNames(model, route.provider.name, route.upstreamModel);
  } catch {
    // An unknown model is refused by routing; the lists check it by the name given.
    return undefined;
  }
}

/** `provider/upstream` and `upstream`, without the name already given. */
export function qualifiedNames(model: string, provider: string, upstreamModel: string): string[] {
  const qualified = upstreamModel.startsWith(`${provider}/`) ? upstreamModel : `${provider}/${upstreamModel}`;
  return [...new Set([qualified, upstreamModel])].filter((name) => name !== model);
}
