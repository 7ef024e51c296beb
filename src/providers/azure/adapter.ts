// Azure OpenAI (https://learn.microsoft.com/en-us/azure/ai-services/openai/reference):
// the deployment is in the path, every call carries `api-version`, and the key
// goes in `api-key`. The base URL is the resource endpoint
// (AZURE_OPENAI_ENDPOINT=https://my-resource.openai.azure.com).
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { keyHeader, trimBaseUrl, withQuery } from '../provider-http.js';

/** The latest GA data-plane version when this was written; OPENAI_API_VERSION or --api-version override it. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

const DEPLOYMENT_PATHS: Partial<Record<UpstreamOperation, string>> = {
  'chat.completions': '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
};

export const azureAdapter: ProviderAdapter = {
  kind: 'azure',
  dialect: 'openai',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    const base = `${trimBaseUrl(config.baseUrl)}/openai`;
    const query = new URLSearchParams(call.query);
    query.set('api-version', config.apiVersion ?? AZURE_DEFAULT_API_VERSION);
    // https://learn.microsoft.com/en-us/rest/api/azureopenai/models/list
    if (call.operation === 'models.list') return withQuery(`${base}/models`, query);
    const path = DEPLOYMENT_PATHS[call.operation];
    // Passthrough is not offered: Azure's paths are not OpenAI's.
    if (path === undefined || call.model === null) return null;
    return withQuery(`${base}/deployments/${encodeURIComponent(call.model)}${path}`, query);
  },
  authHeaders: (config) => keyHeader('api-key', config.apiKey),
  defaultHeaders: () => ({}),
  // The deployment in the path picks the model; a `model` field in the body is ignored by Azure.
  modelInBody: () => false,
};
