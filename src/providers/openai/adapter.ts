// OpenAI (https://platform.openai.com/docs/api-reference). The base URL includes
// `/v1`, as OPENAI_BASE_URL does in the official SDKs, so paths are appended to it.
import type { ProviderAdapter, ProviderConfig, UpstreamCall, UpstreamOperation } from '../provider-adapter.js';
import { bearerAuth, joinPassthroughUrl, trimBaseUrl, withQuery } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  'chat.completions': '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  'models.list': '/models',
};

export const openAiAdapter: ProviderAdapter = {
  kind: 'openai',
  dialect: 'openai',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    if (call.operation === 'passthrough') {
      return call.clientPath === undefined ? null : joinPassthroughUrl(config.baseUrl, call.clientPath);
    }
    const path = PATHS[call.operation];
    return path === undefined ? null : withQuery(`${trimBaseUrl(config.baseUrl)}${path}`, call.query);
  },
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
};
