// Another gw (the hub a sidecar forwards to). It speaks every dialect itself, so
// the client's own path goes through unchanged under the hub's base URL, and the
// credential is the sidecar's person-bound gws- session credential in `x-gw-vk`,
// added by src/sidecar/hub-upstream.ts (README, "Credentials from the hub"). The hub
// resolves the model with its own providers and aliases.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import { keyHeader, trimBaseUrl } from '../provider-http.js';

export const gatewayAdapter: ProviderAdapter = {
  kind: 'gateway',
  dialect: 'any',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    if (call.clientPath === undefined) return null;
    const path = call.clientPath.startsWith('/') ? call.clientPath : `/${call.clientPath}`;
    return `${trimBaseUrl(config.baseUrl)}${path}`;
  },
  authHeaders: (config) => keyHeader('x-gw-vk', config.apiKey),
  defaultHeaders: () => ({}),
  // OpenAI and Anthropic bodies name the model; GenAI paths name it inside clientPath, forwarded as is.
  modelInBody: () => true,
  catalogIdsRoute: true,
  countsHops: true,
};
