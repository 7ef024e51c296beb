// Google AI Studio, the Gemini API (https://ai.google.dev/api). The model is in the
// path (`/v1beta/models/{model}:generateContent`), the key in `x-goog-api-key`.
// Streaming asks for SSE (`alt=sse`) instead of the default JSON array:
// https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { joinPassthroughUrl, keyHeader, trimBaseUrl, withQuery } from '../provider-http.js';

const METHODS: Partial<Record<UpstreamOperation, string>> = {
  'genai.generateContent': ':generateContent',
  'genai.streamGenerateContent': ':streamGenerateContent',
  'genai.countTokens': ':countTokens',
  'genai.embedContent': ':embedContent',
  'genai.batchEmbedContents': ':batchEmbedContents',
};

export const geminiAdapter: ProviderAdapter = {
  kind: 'gemini',
  dialect: 'google',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    const base = trimBaseUrl(config.baseUrl);
    if (call.operation === 'passthrough') {
      return call.clientPath === undefined ? null : dropKeyParameter(joinPassthroughUrl(base, call.clientPath));
    }
    if (call.operation === 'genai.models.list') return withQuery(`${base}/v1beta/models`, queryWithoutKey(call.query));
    const method = METHODS[call.operation];
    if (method === undefined || call.model === null) return null;
    const query = queryWithoutKey(call.query);
    if (call.operation === 'genai.streamGenerateContent') query.set('alt', 'sse');
    return withQuery(`${base}/v1beta/models/${encodeModel(call.model)}${method}`, query);
  },
  authHeaders: (config) => keyHeader('x-goog-api-key', config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => false,
};

/** GenAI clients may name the model `models/gemini-…`; the path adds `models/` itself. */
function encodeModel(model: string): string {
  return encodeURIComponent(model.replace(/^models\//, ''));
}

// A client's own `?key=` is a gw credential (or a key gw must not forward): the
// provider's key travels only in x-goog-api-key.
function queryWithoutKey(query: URLSearchParams | undefined): URLSearchParams {
  const copy = new URLSearchParams(query);
  copy.delete('key');
  return copy;
}

function dropKeyParameter(url: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('key')) return url;
  parsed.searchParams.delete('key');
  return parsed.toString();
}
