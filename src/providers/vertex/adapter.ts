// Google Cloud Vertex AI (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest).
// One provider, two publishers, so two dialects: Claude speaks Anthropic's Messages API through
// `…/publishers/anthropic/models/{model}:rawPredict` and `:streamRawPredict`
// (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude), with
// `anthropic_version` in the body and the model only in the path; Gemini speaks the google-genai
// format through `…/publishers/google/models/{model}:generateContent` and
// `:streamGenerateContent?alt=sse`. The project and location are in every path; the bearer token
// is a short-lived Google access token the upstream side mints (src/upstream/provider-tokens.ts).
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { trimBaseUrl, withQuery } from '../provider-http.js';

// Vertex's own version of the Messages API: required in the body instead of a header.
const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** `https://{location}-aiplatform.googleapis.com`; the global endpoint has no location prefix. */
export function vertexBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/** Claude models are Anthropic's publisher on Vertex; every other model (Gemini) is Google's. */
function isClaude(model: string): boolean {
  return /^claude-/.test(model);
}

/** `{base}/v1/projects/P/locations/L/publishers/{publisher}/models/{model}`; null without a project. */
function modelUrl(config: ProviderConfig, publisher: string, model: string): string | null {
  const google = config.google;
  if (google === undefined) return null;
  // A versioned Claude id (claude-sonnet-4-5@20250929) keeps its '@', as Google's SDKs send it.
  const name = encodeURIComponent(model.replace(/^models\//, '')).replace(/%40/g, '@');
  const location = encodeURIComponent(google.location);
  return `${trimBaseUrl(config.baseUrl)}/v1/projects/${encodeURIComponent(google.project)}/locations/${location}/publishers/${publisher}/models/${name}`;
}

const CLAUDE_METHODS: Partial<Record<UpstreamOperation, (stream: boolean) => string>> = {
  messages: (stream) => (stream ? ':streamRawPredict' : ':rawPredict'),
  'messages.count_tokens': () => ':rawPredict',
};

const GEMINI_METHODS: Partial<Record<UpstreamOperation, string>> = {
  'genai.generateContent': ':generateContent',
  'genai.streamGenerateContent': ':streamGenerateContent',
};

const vertexClaudeAdapter: ProviderAdapter = {
  kind: 'vertex',
  dialect: 'anthropic',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    const method = CLAUDE_METHODS[call.operation];
    // Token counting is one endpoint for every Claude model, named in the body:
    // https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens
    const model = call.operation === 'messages.count_tokens' ? 'count-tokens' : call.model;
    const url = model === null || method === undefined ? null : modelUrl(config, 'anthropic', model);
    return url === null || method === undefined ? null : `${url}${method(call.stream)}`;
  },
  authHeaders: () => ({}),
  defaultHeaders: () => ({}),
  modelInBody: () => false,
  finishBody(body: Record<string, unknown>, call: UpstreamCall): Record<string, unknown> {
    const { model: _model, ...rest } = body;
    const named = call.operation === 'messages.count_tokens' && call.model !== null ? { model: call.model } : {};
    return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...named, ...rest };
  },
};

const vertexGeminiAdapter: ProviderAdapter = {
  kind: 'vertex',
  dialect: 'google',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    const method = GEMINI_METHODS[call.operation];
    const url = call.model === null || method === undefined ? null : modelUrl(config, 'google', call.model);
    if (url === null || method === undefined) return null;
    // SSE rather than the default JSON array: https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/streamGenerateContent
    return call.operation === 'genai.streamGenerateContent' ? withQuery(`${url}${method}`, new URLSearchParams({ alt: 'sse' })) : `${url}${method}`;
  },
  authHeaders: () => ({}),
  defaultHeaders: () => ({}),
  modelInBody: () => false,
};

export const vertexAdapter: ProviderAdapter = {
  ...vertexGeminiAdapter,
  forModel: (model: string) => (isClaude(model.replace(/^models\//, '')) ? vertexClaudeAdapter : vertexGeminiAdapter),
};
