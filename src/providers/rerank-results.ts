// Reading a rerank provider's result list into gw's shape: shared by the rerank
// adapters (no provider knowledge; untrusted input checked item by item).
import type { ProviderAdapter, ProviderConfig, ProviderKind, RerankMapper, RerankRequest, RerankResponse, UpstreamCall } from './provider-adapter.js';
import { bearerAuth, trimBaseUrl, withQuery } from './provider-http.js';

type Result = RerankResponse['results'][number];

/** `[{index, relevance_score, document?}]`, documents filled from the request when asked for. */
export function readRerankResults(list: unknown, request: RerankRequest): Result[] {
  if (!Array.isArray(list)) return [];
  const results: Result[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { index, relevance_score: score } = item as Record<string, unknown>;
    if (typeof index !== 'number' || typeof score !== 'number') continue;
    const text = request.documents[index];
    const document = request.return_documents === true && text !== undefined ? { document: { text } } : {};
    results.push({ index, relevance_score: score, ...document });
  }
  return results;
}

/** A rerank-only provider at `{base}/rerank` with Bearer auth (Jina, Voyage): only its body mapping differs. */
export function rerankOnlyAdapter(kind: ProviderKind, rerank: RerankMapper): ProviderAdapter {
  return {
    kind,
    dialect: 'openai',
    urlFor: (config: ProviderConfig, call: UpstreamCall) => (call.operation === 'rerank' ? withQuery(`${trimBaseUrl(config.baseUrl)}/rerank`, call.query) : null),
    authHeaders: (config) => bearerAuth(config.apiKey),
    defaultHeaders: () => ({}),
    modelInBody: () => true,
    rerank,
  };
}
