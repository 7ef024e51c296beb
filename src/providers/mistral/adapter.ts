// Mistral (https://docs.mistral.ai/api/): one key serves its OpenAI-compatible chat,
// embeddings and models, and its own OCR API (POST {base}/ocr, a document or image URL
// in, Markdown pages out: https://docs.mistral.ai/api/#tag/ocr). gw's /v1/ocr takes
// Mistral's body as it is, with only the model patched.
import type { ProviderAdapter, ProviderConfig, UpstreamCall, UpstreamOperation } from '../provider-adapter.js';
import { bearerAuth, joinPassthroughUrl, resourceUrl, trimBaseUrl, withQuery } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  'chat.completions': '/chat/completions',
  embeddings: '/embeddings',
  'models.list': '/models',
};

const RESOURCES: ReadonlySet<UpstreamOperation> = new Set<UpstreamOperation>(['ocr', 'files', 'files.item', 'files.content', 'batches', 'batches.item', 'batches.cancel']);

export const mistralAdapter: ProviderAdapter = {
  kind: 'mistral',
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
