// Mistral (https://docs.mistral.ai/api/): one key serves its OpenAI-compatible chat,
// embeddings and models, and its own OCR API (POST {base}/ocr, a document or image URL
// in, Markdown pages out: https://docs.mistral.ai/api/#tag/ocr). gw's /v1/ocr takes
// Mistral's body as it is, with only the model patched.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { bearerAuth, urlByPathLayout, type PathLayout } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  'chat.completions': '/chat/completions',
  embeddings: '/embeddings',
  'models.list': '/models',
};

const RESOURCES: ReadonlySet<UpstreamOperation> = new Set<UpstreamOperation>(['ocr', 'files', 'files.item', 'files.content', 'batches', 'batches.item', 'batches.cancel']);

const LAYOUT: PathLayout = { paths: PATHS, resources: RESOURCES };

export const mistralAdapter: ProviderAdapter = {
  kind: 'mistral',
  dialect: 'openai',
  urlFor: (config: ProviderConfig, call: UpstreamCall) => urlByPathLayout(config.baseUrl, call, LAYOUT),
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
};
