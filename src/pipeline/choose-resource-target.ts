// Routing for a resource call, first rule that decides wins:
//   1. an id in the path gw saw created (resource-ids store) → the provider that created it;
//   2. a batch's `input_file_id` gw saw uploaded → that file's provider;
//   3. `x-gw-provider: NAME` → that configured provider (how a multipart upload names one:
//      its form is streamed through unread, so a `model` field inside it cannot decide);
//   4. a `model` in a JSON body → the model routing of chat (provider/model, aliases, prefixes);
//   5. the first configured provider of the route's kinds (openai first), else a gateway.
// A provider that lacks the operation is refused with a 400 that names the providers that have it.
import { GatewayError } from '../errors.js';
import type { ProviderConfig, UpstreamCall } from '../providers/provider-adapter.js';
import { PROVIDER_KINDS, adapterFor } from '../providers/registry.js';
import { resolveModel } from '../routing/resolve-model.js';
import type { Target } from './choose-target.js';
import type { GatewayServices } from './gateway-services.js';
import type { PipelineRequest } from './pipeline-types.js';
import { resourceIdOf, type ResourceRoute } from './resource-routes.js';

export const PROVIDER_HEADER = 'x-gw-provider';

export function chooseResourceTarget(request: PipelineRequest, route: ResourceRoute, services: GatewayServices): Target {
  const providers = services.providers();
  const byName = (name: string | undefined) => name === undefined ? undefined : providers.providers.find((provider) => provider.name === name);
  const id = resourceIdOf(request, route);
  const remembered = byName(id === null ? undefined : services.resourceIds?.providerOf(id));
  if (remembered) return offering(remembered, route, providers.providers, null);
  const fileId = bodyString(request.body, 'input_file_id');
  const fileOwner = byName(fileId === undefined ? undefined : services.resourceIds?.providerOf(fileId));
  if (fileOwner) return offering(fileOwner, route, providers.providers, null);
  const named = headerValue(request.headers[PROVIDER_HEADER]);
  if (named !== undefined) {
    const provider = byName(named);
    if (!provider) {
      throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', { message: `${PROVIDER_HEADER} names "${named}", which is not a configured provider (configured: ${names(providers.providers)}).` });
    }
    return offering(provider, route, providers.providers, null);
  }
  const model = bodyString(request.body, 'model');
  if (model !== undefined) {
    const resolved = resolveModel(model, providers.providers, providers.aliases);
    return offering(resolved.provider, route, providers.providers, resolved.upstreamModel);
  }
  const fallback = route.kinds.map((kind) => providers.providers.find((provider) => provider.kind === kind)).find(Boolean)
    ?? providers.providers.find((provider) => provider.kind === 'gateway');
  if (!fallback) {
    throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', {
      message: `No configured provider offers ${route.operation}; providers of kind ${kindsOffering(route).join(', ')} do (set one's API key, or gw providers add).`,
    });
  }
  return offering(fallback, route, providers.providers, null);
}

/** Whether a provider's adapter has a URL for the operation. */
export function offers(provider: ProviderConfig, operation: UpstreamCall['operation']): boolean {
  if (provider.kind === 'mock') return false;
  const probe: UpstreamCall = { operation, model: null, stream: false, resourcePath: '/probe', clientPath: '/probe' };
  return adapterFor(provider.kind).urlFor(provider, probe) !== null;
}

function offering(provider: ProviderConfig, route: ResourceRoute, all: readonly ProviderConfig[], upstreamModel: string | null): Target {
  if (offers(provider, route.operation)) return { provider, upstreamModel };
  const configured = all.filter((candidate) => offers(candidate, route.operation)).map((candidate) => candidate.name);
  const elsewhere = configured.length > 0 ? `configured providers that do: ${configured.join(', ')}` : 'no configured provider does';
  throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', {
    message: `Provider ${provider.name} (${provider.kind}) does not offer ${route.operation}; ${elsewhere} ` +
      `(provider kinds that do: ${kindsOffering(route).join(', ')}).`,
  });
}

function kindsOffering(route: ResourceRoute): string[] {
  return PROVIDER_KINDS.filter((kind) => kind !== 'gateway' && kind !== 'mock'
    && offers({ name: kind, kind, baseUrl: 'http://provider.invalid', apiKey: null, source: 'built-in' }, route.operation));
}

function bodyString(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

function names(providers: readonly ProviderConfig[]): string {
  return providers.map((provider) => provider.name).join(', ');
}
