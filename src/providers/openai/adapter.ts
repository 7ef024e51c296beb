// OpenAI (https://platform.openai.com/docs/api-reference). The base URL includes
// `/v1`, as OPENAI_BASE_URL does in the official SDKs, so paths are appended to it.
import type { ProviderAdapter, ProviderConfig, UpstreamCall, UpstreamOperation } from '../provider-adapter.js';
import { bearerAuth, joinPassthroughUrl, resourceUrl, trimBaseUrl, withQuery } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  'chat.completions': '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  'models.list': '/models',
};

// Resources and media routes, at the client's own path under /v1 (https://platform.openai.com/docs/api-reference).
const RESOURCES: ReadonlySet<UpstreamOperation> = new Set<UpstreamOperation>([
  'responses.create', 'responses.retrieve', 'responses.delete', 'responses.cancel', 'responses.input_items',
  'responses.input_tokens', 'responses.compact', 'files', 'files.item', 'files.content',
  'batches', 'batches.item', 'batches.results', 'batches.cancel', 'containers', 'containers.item',
  'videos', 'videos.item', 'videos.content', 'videos.remix', 'images.generations', 'images.edits', 'images.variations',
  'audio.speech', 'audio.transcriptions', 'realtime',
]);

export const openAiAdapter: ProviderAdapter = {
  kind: 'openai',
  dialect: 'openai',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    if (call.operation === 'passthrough') {
      return call.clientPath === undefined ? null : joinPassthroughUrl(config.baseUrl, call.clientPath);
    }
    if (call.resourcePath !== undefined) return resourceUrl(config.baseUrl, call, RESOURCES);
    const path = PATHS[call.operation];
    return path === undefined ? null : withQuery(`${trimBaseUrl(config.baseUrl)}${path}`, call.query);
  },
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
};
