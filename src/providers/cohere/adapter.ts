// Cohere (https://docs.cohere.com/reference/rerank): rerank only. gw's rerank body is
// Cohere's own v2 shape, so the request goes almost as it is; v2 answers indices and
// scores only, so the documents a client asked back are filled in from its request.
import type { ProviderAdapter, ProviderConfig, RerankMapper, RerankRequest, UpstreamCall } from '../provider-adapter.js';
import { bearerAuth, trimBaseUrl, withQuery } from '../provider-http.js';
import { readRerankResults } from '../rerank-results.js';

const cohereRerank: RerankMapper = {
  encodeRequest: (request: RerankRequest) => ({
    model: request.model, query: request.query, documents: request.documents,
    ...(request.top_n === undefined ? {} : { top_n: request.top_n }),
  }),
  decodeResponse(body, request) {
    const record = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {};
    const units = (record.meta as { billed_units?: { search_units?: unknown } } | undefined)?.billed_units?.search_units;
    return {
      ...(typeof record.id === 'string' ? { id: record.id } : {}),
      model: request.model,
      results: readRerankResults(record.results, request),
      ...(typeof units === 'number' ? { usage: { search_units: units } } : {}),
    };
  },
};

export const cohereAdapter: ProviderAdapter = {
  kind: 'cohere',
  dialect: 'openai',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    return call.operation === 'rerank' ? withQuery(`${trimBaseUrl(config.baseUrl)}/v2/rerank`, call.query) : null;
  },
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
  rerank: cohereRerank,
};
