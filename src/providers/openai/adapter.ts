// OpenAI (https://platform.openai.com/docs/api-reference). The base URL includes
// `/v1`, as OPENAI_BASE_URL does in the official SDKs, so paths are appended to it.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { bearerAuth, urlByPathLayout, type PathLayout } from '../provider-http.js';

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
  'audio.speech', 'audio.transcriptions', 'audio.translations', 'realtime',
]);

const LAYOUT: PathLayout = { paths: PATHS, resources: RESOURCES };

export const openAiAdapter: ProviderAdapter = {
  kind: 'openai',
  dialect: 'openai',
  urlFor: (config: ProviderConfig, call: UpstreamCall) => urlByPathLayout(config.baseUrl, call, LAYOUT),
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
};
