// Anthropic (https://docs.anthropic.com/en/api/overview). The base URL has no
// version (ANTHROPIC_BASE_URL=https://api.anthropic.com), so paths carry `/v1`.
// Claude Code calls `/v1/messages?beta=true`; the query is kept as the client sent it.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { bearerAuth, keyHeader, urlByPathLayout, type PathLayout } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  messages: '/v1/messages',
  'messages.count_tokens': '/v1/messages/count_tokens',
  'models.list.anthropic': '/v1/models',
};

// Message Batches (https://docs.anthropic.com/en/api/creating-message-batches): the client's path, under /v1.
const RESOURCES: ReadonlySet<UpstreamOperation> = new Set<UpstreamOperation>([
  'messages.batches', 'messages.batches.item', 'messages.batches.results', 'messages.batches.cancel',
]);

// https://docs.anthropic.com/en/api/versioning: required on every request.
const ANTHROPIC_VERSION = '2023-06-01';

const LAYOUT: PathLayout = { paths: PATHS, resources: RESOURCES, resourceRoot: '/v1' };

export const anthropicAdapter: ProviderAdapter = {
  kind: 'anthropic',
  dialect: 'anthropic',
  urlFor: (config: ProviderConfig, call: UpstreamCall) => urlByPathLayout(config.baseUrl, call, LAYOUT),
  // https://docs.anthropic.com/en/api/getting-started#authentication: API keys go in x-api-key;
  // an ANTHROPIC_AUTH_TOKEN is an OAuth bearer token, sent as the SDK sends it.
  authHeaders: (config) => config.apiKeyFrom === 'env:ANTHROPIC_AUTH_TOKEN' ? bearerAuth(config.apiKey) : keyHeader('x-api-key', config.apiKey),
  defaultHeaders: () => ({ 'anthropic-version': ANTHROPIC_VERSION }),
  modelInBody: () => true,
};
