// Voyage AI (https://docs.voyageai.com/reference/reranker-api): rerank only. It names
// the limit `top_k` and answers a list object: `{object: "list", data: [...], usage}`.
import type { ProviderAdapter, RerankMapper, RerankRequest } from '../provider-adapter.js';
import { readRerankResults, rerankOnlyAdapter } from '../rerank-results.js';

const voyageRerank: RerankMapper = {
  encodeRequest: (request: RerankRequest) => ({
    model: request.model, query: request.query, documents: request.documents,
    ...(request.top_n === undefined ? {} : { top_k: request.top_n }),
    return_documents: request.return_documents === true,
  }),
  decodeResponse(body, request) {
    const record = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {};
    const tokens = (record.usage as { total_tokens?: unknown } | undefined)?.total_tokens;
    return {
      model: typeof record.model === 'string' ? record.model : request.model,
      results: readRerankResults(record.data, request),
      ...(typeof tokens === 'number' ? { usage: { total_tokens: tokens } } : {}),
    };
  },
};

export const voyageAdapter: ProviderAdapter = rerankOnlyAdapter('voyage', voyageRerank);
