// Claude on Microsoft Foundry (https://platform.claude.com/docs/en/build-with-claude/claude-in-microsoft-foundry):
// the Anthropic Messages API on a Foundry resource, https://{resource}.services.ai.azure.com/anthropic.
// The body is Anthropic's, `model` names the deployment; the resource's key goes in x-api-key
// (as @anthropic-ai/foundry-sdk sends it). Foundry offers no Message Batches and no model list.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { keyHeader, urlByPathLayout, type PathLayout } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  messages: '/v1/messages',
  'messages.count_tokens': '/v1/messages/count_tokens',
};

const LAYOUT: PathLayout = { paths: PATHS, resources: new Set(), resourceRoot: '/v1' };

// https://docs.anthropic.com/en/api/versioning: Foundry requires it as Anthropic does.
const ANTHROPIC_VERSION = '2023-06-01';

/** The base URL the Foundry SDK builds from ANTHROPIC_FOUNDRY_RESOURCE. */
export function foundryBaseUrl(resource: string): string {
  return `https://${resource}.services.ai.azure.com/anthropic`;
}

export const foundryAdapter: ProviderAdapter = {
  kind: 'foundry',
  dialect: 'anthropic',
  urlFor: (config: ProviderConfig, call: UpstreamCall) => urlByPathLayout(config.baseUrl, call, LAYOUT),
  authHeaders: (config) => keyHeader('x-api-key', config.apiKey),
  defaultHeaders: () => ({ 'anthropic-version': ANTHROPIC_VERSION }),
  modelInBody: () => true,
};
