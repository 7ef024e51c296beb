// The other names of the model a call names, for the model lists: where it resolves,
// provider-qualified (`gpt-4o` → `openai/gpt-4o`, an alias → its target), and the name the
// provider knows (`openai/gpt-4o` → `gpt-4o`). An admin who writes `openai/*` means every
// model OpenAI serves, however the client spelled it; one who writes `gpt-4o` means that
// model whichever prefix the client put before it. Asked only when a model list applies.
import type { PolicyRecord } from '../../policy/policy-record.js';
import { evaluateModelAccess, hasModelList, type PolicyRefusal } from '../../policy/evaluate-policy.js';
import { resolveModel } from '../../routing/resolve-model.js';
import type { GatewayServices } from '../gateway-services.js';
import type { ProviderConfig } from '../../providers/provider-adapter.js';

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
function qualifiedNames(model: string, provider: string, upstreamModel: string): string[] {
  const qualified = upstreamModel.startsWith(`${provider}/`) ? upstreamModel : `${provider}/${upstreamModel}`;
  return [...new Set([qualified, upstreamModel])].filter((name) => name !== model);
}

/**
 * Why a planned target's model is refused, or null: a routing rule or an alias may lead to a
 * model the lists deny (`smart` → `openai/gpt-4o` under deny_models `openai/*`). The name the
 * client gave passed already, so it stands in for the allow side; a deny of the target's own
 * names refuses it. A gateway provider's targets are the hub's to judge.
 */
export function refuseTargetModel(policies: readonly PolicyRecord[], target: { provider: ProviderConfig; upstreamModel: string | null }, clientModel: string | null): PolicyRefusal | null {
  if (target.upstreamModel === null || target.provider.kind === 'gateway' || policies.length === 0 || !hasModelList(policies)) return null;
  const [qualified, ...others] = qualifiedNames('', target.provider.name, target.upstreamModel);
  const aliases = clientModel === null ? others : [...others, clientModel];
  return evaluateModelAccess(policies, { model: qualified!, modelAliases: aliases })[0] ?? null;
}
