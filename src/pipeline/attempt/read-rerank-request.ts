// gw's rerank body, checked at the boundary: Cohere's shape `{model, query, documents,
// top_n?, return_documents?}`, documents as strings or `{text}` objects (Cohere v1 and
// Jina take both). Each rerank adapter maps it to its own wire format.
import { GatewayError } from '../../errors.js';
import type { RerankRequest } from '../../providers/provider-adapter.js';

function invalid(message: string, param: string): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message, param });
}

function readDocument(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = typeof value === 'object' && value !== null ? (value as { text?: unknown }).text : undefined;
  if (typeof text === 'string') return text;
  throw invalid('Each of "documents" must be a string or an object with a "text" string.', 'documents');
}

export function readRerankRequest(body: Record<string, unknown>, upstreamModel: string | null): RerankRequest {
  const { query, documents, top_n: topN, return_documents: returnDocuments } = body;
  if (typeof query !== 'string' || query === '') throw invalid('Rerank needs a "query" string.', 'query');
  if (!Array.isArray(documents) || documents.length === 0) throw invalid('Rerank needs a non-empty "documents" array.', 'documents');
  if (topN !== undefined && (!Number.isInteger(topN) || (topN as number) < 1)) throw invalid('"top_n" must be a positive integer.', 'top_n');
  if (returnDocuments !== undefined && typeof returnDocuments !== 'boolean') throw invalid('"return_documents" must be a boolean.', 'return_documents');
  const model = upstreamModel ?? (typeof body.model === 'string' ? body.model : '');
  if (model === '') throw invalid('Rerank needs a "model" string.', 'model');
  return {
    model, query, documents: documents.map(readDocument),
    ...(topN === undefined ? {} : { top_n: topN as number }),
    ...(returnDocuments === undefined ? {} : { return_documents: returnDocuments }),
  };
}
