// A stand-in for Vertex AI's publisher-model endpoints, in the documented shapes:
// Claude at …/publishers/anthropic/models/{model}:rawPredict and :streamRawPredict (an Anthropic
// Messages body with anthropic_version "vertex-2023-10-16" and no model:
// https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude), Gemini at
// …/publishers/google/models/{model}:generateContent and :streamGenerateContent?alt=sse. The answers
// are the Anthropic and Gemini fakes' (the bodies are the same APIs'); errors are Google's.
import { fakeAnthropic } from './fake-anthropic.js';
import { fakeGemini } from './fake-gemini.js';
import type { FakeDialect, FakeJsonReply, FakeReply, RecordedRequest } from './fake-provider-types.js';

const MODEL_METHOD = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(anthropic|google)\/models\/([^/:]+):(\w+)$/;

const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

function routeClaude(request: RecordedRequest, model: string, method: string): FakeReply | undefined {
  if (method !== 'rawPredict' && method !== 'streamRawPredict') return undefined;
  const body = request.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fakeGemini.createError(400, 'Invalid JSON payload received.');
  const fields = body as Record<string, unknown>;
  if (fields.anthropic_version !== VERTEX_ANTHROPIC_VERSION) return fakeGemini.createError(400, `anthropic_version: expected ${VERTEX_ANTHROPIC_VERSION}`);
  const headers = { ...request.headers, 'anthropic-version': '2023-06-01' };
  // Token counting: one endpoint for every Claude model, the model named in the body.
  if (model === 'count-tokens') {
    if (typeof fields.model !== 'string') return fakeGemini.createError(400, 'model: Field required');
    return fakeAnthropic.route({ ...request, path: '/v1/messages/count_tokens', headers });
  }
  if ('model' in fields) return fakeGemini.createError(400, 'model: Extra inputs are not permitted');
  if ((method === 'streamRawPredict') !== (fields.stream === true)) return fakeGemini.createError(400, `${method} with stream ${String(fields.stream)}`);
  // Vertex takes the version from the body: the Anthropic fake's header check is satisfied here.
  return fakeAnthropic.route({ ...request, path: '/v1/messages', headers, json: { ...fields, model } });
}

function routeGemini(request: RecordedRequest, model: string, method: string): FakeReply | undefined {
  if (method !== 'generateContent' && method !== 'streamGenerateContent') return undefined;
  if (method === 'streamGenerateContent' && request.query.alt !== 'sse') return fakeGemini.createError(400, 'gw asks for SSE (alt=sse)');
  return fakeGemini.route({ ...request, path: `/v1/models/${model}:${method}` });
}

export const fakeVertex: FakeDialect = {
  route(request: RecordedRequest): FakeReply | undefined {
    const match = MODEL_METHOD.exec(request.path);
    if (!match || request.method !== 'POST') return undefined;
    const [, , , publisher, model = '', method = ''] = match;
    const name = decodeURIComponent(model);
    return publisher === 'anthropic' ? routeClaude(request, name, method) : routeGemini(request, name, method);
  },
  createError: (status, message) => fakeGemini.createError(status, message),
  // The access token the local Google token endpoint minted (FakeProviderOptions.acceptsToken).
  authorize(): FakeJsonReply | undefined {
    return undefined;
  },
};

/** Vertex's answer to a missing, unknown or expired access token. */
export function refuseToken(): FakeJsonReply {
  return fakeGemini.createError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
}
