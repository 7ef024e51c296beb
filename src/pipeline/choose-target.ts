// Routing for one call: the model names the provider (src/routing/resolve-model.ts),
// or, for a passthrough prefix, the prefix does.
import { GatewayError } from '../errors.js';
import type { ProviderConfig, ProviderKind } from '../providers/provider-adapter.js';
import { resolveModel } from '../routing/resolve-model.js';
import type { ProviderSet } from './gateway-services.js';
import type { InboundCall } from './read-inbound-call.js';
import type { Family } from './route-table.js';

export interface Target {
  provider: ProviderConfig;
  /** The model as the provider knows it; null for passthrough. */
  upstreamModel: string | null;
}

const PASSTHROUGH_KINDS: Partial<Record<Family, ProviderKind>> = { openai: 'openai', anthropic: 'anthropic', google: 'gemini' };

export function chooseTarget(inbound: InboundCall, set: ProviderSet, family: Family): Target {
  if (inbound.operation !== 'passthrough') {
    // The AzureOpenAI client names a deployment: an Azure provider, when there is one, serves it.
    const azure = inbound.deployment && !inbound.model?.includes('/') ? set.providers.find((candidate) => candidate.kind === 'azure') : undefined;
    if (azure) return { provider: azure, upstreamModel: inbound.model };
    const route = resolveModel(inbound.model ?? '', set.providers, set.aliases);
    return { provider: route.provider, upstreamModel: route.upstreamModel };
  }
  const kind = PASSTHROUGH_KINDS[family] ?? 'openai';
  const provider = set.providers.find((candidate) => candidate.name === kind)
    ?? set.providers.find((candidate) => candidate.kind === kind)
    ?? set.providers.find((candidate) => candidate.kind === 'gateway');
  if (!provider) {
    throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', {
      message: `The ${family} passthrough needs a configured ${kind} provider (set its API key in the environment or run gw providers add ${kind} --kind ${kind}).`,
    });
  }
  return { provider, upstreamModel: null };
}
