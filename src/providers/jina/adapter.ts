// Jina AI (https://jina.ai/reranker/#apiform): rerank only, at {base}/rerank with
// Bearer auth. Its body and answer are close to Cohere's; usage counts tokens.
import type { ProviderAdapter, RerankMapper, RerankRequest } from '../provider-adapter.js';
import { readRerankResults, rerankOnlyAdapter } from '../rerank-results.js';

const jinaRerank: RerankMapper = {
  encodeRequest: (request: RerankRequest) => ({
    model: request.model, query: request.query, documents: request.documents,
    ...(request.top_n === undefined ? {} : { top_n: request.top_n }),
    return_documents: request.return_documents === true,
  }),
  decodeResponse(body, request) {
    const record = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {};
    const tokens = (record.usage as { total_tokens?: unknown } | undefined)?.total_tokens;
    return {
      model: typeof record.model === 'string' ? record.model : request.model,
      results: readRerankResults(record.results, request),
      ...(typeof tokens === 'number' ? { usage: { total_tokens: tokens } } : {}),
    };
  },
};

export const jinaAdapter: ProviderAdapter = rerankOnlyAdapter('jina', jinaRerank);
