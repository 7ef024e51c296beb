import { describe, expect, it } from 'vitest';
import type { ProviderConfig, ProviderKind, UpstreamCall } from '../../src/providers/provider-adapter.js';
import type { UpstreamOperation } from '../../src/canonical/dialect.js';
import { PROVIDER_KINDS, adapterFor, adapterForModel } from '../../src/providers/registry.js';
import { vertexBaseUrl } from '../../src/providers/vertex/adapter.js';

function config(kind: ProviderKind, baseUrl: string, apiKey: string | null = 'secret', extra: Partial<ProviderConfig> = {}): ProviderConfig {
  return { name: kind, kind, baseUrl, apiKey, source: 'environment', ...extra };
}

function call(operation: UpstreamOperation, model: string | null = 'm-1', extra: Partial<UpstreamCall> = {}): UpstreamCall {
  return { operation, model, stream: false, ...extra };
}

function urlFor(provider: ProviderConfig, upstreamCall: UpstreamCall): string | null {
  return adapterFor(provider.kind).urlFor(provider, upstreamCall);
}

describe('registry', () => {
  it('has one adapter per kind, each naming its own kind', () => {
    expect(PROVIDER_KINDS.sort()).toEqual(['anthropic', 'azure', 'bedrock', 'cohere', 'foundry', 'gateway', 'gemini', 'jina', 'mistral', 'mock', 'openai', 'openai-compatible', 'vertex', 'voyage']);
    for (const kind of PROVIDER_KINDS) expect(adapterFor(kind).kind).toBe(kind);
  });
});

describe.each(['openai', 'openai-compatible'] as const)('%s adapter', (kind) => {
  const provider = config(kind, 'https://api.openai.com/v1/');

  it('appends operation paths to a base that includes /v1', () => {
    expect(urlFor(provider, call('chat.completions'))).toBe('https://api.openai.com/v1/chat/completions');
    expect(urlFor(provider, call('completions'))).toBe('https://api.openai.com/v1/completions');
    expect(urlFor(provider, call('embeddings'))).toBe('https://api.openai.com/v1/embeddings');
    expect(urlFor(provider, call('models.list', null))).toBe('https://api.openai.com/v1/models');
    expect(urlFor(provider, call('messages'))).toBeNull();
    expect(urlFor(provider, call('genai.generateContent'))).toBeNull();
  });

  it('passes through without doubling /v1, and keeps a proxy prefix', () => {
    expect(urlFor(provider, call('passthrough', null, { clientPath: '/v1/files?purpose=batch' }))).toBe('https://api.openai.com/v1/files?purpose=batch');
    expect(urlFor(provider, call('passthrough', null, { clientPath: '/files' }))).toBe('https://api.openai.com/v1/files');
    const proxied = config(kind, 'https://proxy.example/openai/v1');
    expect(urlFor(proxied, call('passthrough', null, { clientPath: '/v1/batches' }))).toBe('https://proxy.example/openai/v1/batches');
    expect(urlFor(provider, call('passthrough', null))).toBeNull();
  });

  it('sends Bearer auth, none without a key, and names the model in the body', () => {
    const adapter = adapterFor(kind);
    expect(adapter.dialect).toBe('openai');
    expect(adapter.authHeaders(provider)).toEqual({ authorization: 'Bearer secret' });
    expect(adapter.authHeaders(config(kind, 'http://localhost:11434/v1', null))).toEqual({});
    expect(adapter.defaultHeaders(provider)).toEqual({});
    expect(adapter.modelInBody(provider)).toBe(true);
  });
});

describe('anthropic adapter', () => {
  const provider = config('anthropic', 'https://api.anthropic.com');
  const adapter = adapterFor('anthropic');

  it('adds /v1 paths and keeps ?beta=true', () => {
    expect(urlFor(provider, call('messages'))).toBe('https://api.anthropic.com/v1/messages');
    expect(urlFor(provider, call('messages', 'm', { query: new URLSearchParams('beta=true') }))).toBe('https://api.anthropic.com/v1/messages?beta=true');
    expect(urlFor(provider, call('messages.count_tokens'))).toBe('https://api.anthropic.com/v1/messages/count_tokens');
    expect(urlFor(provider, call('models.list.anthropic', null))).toBe('https://api.anthropic.com/v1/models');
    expect(urlFor(provider, call('chat.completions'))).toBeNull();
    expect(urlFor(provider, call('passthrough', null, { clientPath: '/v1/messages/batches' }))).toBe('https://api.anthropic.com/v1/messages/batches');
  });

  it('authenticates with x-api-key and sends anthropic-version', () => {
    expect(adapter.dialect).toBe('anthropic');
    expect(adapter.authHeaders(provider)).toEqual({ 'x-api-key': 'secret' });
    expect(adapter.authHeaders(config('anthropic', 'http://x', null))).toEqual({});
    expect(adapter.defaultHeaders(provider)).toEqual({ 'anthropic-version': '2023-06-01' });
    expect(adapter.modelInBody(provider)).toBe(true);
  });
  it('sends an ANTHROPIC_AUTH_TOKEN as a bearer token, as the Anthropic SDK does', () => {
    expect(adapter.authHeaders({ ...provider, apiKeyFrom: 'env:ANTHROPIC_AUTH_TOKEN' })).toEqual({ authorization: 'Bearer secret' });
    expect(adapter.authHeaders({ ...provider, apiKeyFrom: 'env:ANTHROPIC_API_KEY' })).toEqual({ 'x-api-key': 'secret' });
  });
});

describe('gemini adapter', () => {
  const provider = config('gemini', 'https://generativelanguage.googleapis.com/');
  const adapter = adapterFor('gemini');
  const base = 'https://generativelanguage.googleapis.com/v1beta';

  it('puts the model in the path, with SSE for streaming', () => {
    expect(urlFor(provider, call('genai.generateContent', 'gemini-2.5-flash'))).toBe(`${base}/models/gemini-2.5-flash:generateContent`);
    expect(urlFor(provider, call('genai.streamGenerateContent', 'gemini-2.5-flash', { stream: true }))).toBe(`${base}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`);
    expect(urlFor(provider, call('genai.countTokens', 'models/gemini-2.5-flash'))).toBe(`${base}/models/gemini-2.5-flash:countTokens`);
    expect(urlFor(provider, call('genai.embedContent', 'text-embedding-004'))).toBe(`${base}/models/text-embedding-004:embedContent`);
    expect(urlFor(provider, call('genai.batchEmbedContents', 'text-embedding-004'))).toBe(`${base}/models/text-embedding-004:batchEmbedContents`);
    expect(urlFor(provider, call('genai.models.list', null))).toBe(`${base}/models`);
    expect(urlFor(provider, call('genai.generateContent', null))).toBeNull();
    expect(urlFor(provider, call('chat.completions'))).toBeNull();
  });

  it('never forwards a client ?key=, and passes through from the origin', () => {
    const query = new URLSearchParams('key=sk-gw-abc&alt=sse');
    expect(urlFor(provider, call('genai.streamGenerateContent', 'g', { query }))).toBe(`${base}/models/g:streamGenerateContent?alt=sse`);
    expect(urlFor(provider, call('passthrough', null, { clientPath: '/v1beta/files?key=sk-gw-abc&pageSize=2' }))).toBe(`${base}/files?pageSize=2`);
    expect(urlFor(provider, call('passthrough', null, { clientPath: '/upload/v1beta/files' }))).toBe('https://generativelanguage.googleapis.com/upload/v1beta/files');
  });

  it('authenticates with x-goog-api-key', () => {
    expect(adapter.dialect).toBe('google');
    expect(adapter.authHeaders(provider)).toEqual({ 'x-goog-api-key': 'secret' });
    expect(adapter.defaultHeaders(provider)).toEqual({});
    expect(adapter.modelInBody(provider)).toBe(false);
  });
});

describe('azure adapter', () => {
  const provider = config('azure', 'https://res.openai.azure.com/', 'secret', { apiVersion: '2025-01-01-preview' });
  const adapter = adapterFor('azure');

  it('calls deployments with api-version', () => {
    const deployments = 'https://res.openai.azure.com/openai/deployments';
    expect(urlFor(provider, call('chat.completions', 'gpt-4o'))).toBe(`${deployments}/gpt-4o/chat/completions?api-version=2025-01-01-preview`);
    expect(urlFor(provider, call('completions', 'inst'))).toBe(`${deployments}/inst/completions?api-version=2025-01-01-preview`);
    expect(urlFor(provider, call('embeddings', 'emb'))).toBe(`${deployments}/emb/embeddings?api-version=2025-01-01-preview`);
    expect(urlFor(provider, call('models.list', null))).toBe('https://res.openai.azure.com/openai/models?api-version=2025-01-01-preview');
    expect(urlFor({ ...provider, apiVersion: undefined }, call('chat.completions', 'x'))).toMatch(/\?api-version=2024-10-21$/);
    expect(urlFor(provider, call('passthrough', null, { clientPath: '/v1/files' }))).toBeNull();
    expect(urlFor(provider, call('messages'))).toBeNull();
  });

  it('authenticates with api-key and names the model in the path', () => {
    expect(adapter.dialect).toBe('openai');
    expect(adapter.authHeaders(provider)).toEqual({ 'api-key': 'secret' });
    expect(adapter.modelInBody(provider)).toBe(false);
  });
});

describe('foundry adapter', () => {
  const provider = config('foundry', 'https://res.services.ai.azure.com/anthropic/');
  const adapter = adapterFor('foundry');

  it('calls the Messages API under the resource\'s /anthropic root; no batches, no model list', () => {
    const root = 'https://res.services.ai.azure.com/anthropic/v1';
    expect(urlFor(provider, call('messages', 'claude-sonnet-4-5', { query: new URLSearchParams({ beta: 'true' }) }))).toBe(`${root}/messages?beta=true`);
    expect(urlFor(provider, call('messages.count_tokens'))).toBe(`${root}/messages/count_tokens`);
    expect(urlFor(provider, call('models.list.anthropic', null))).toBeNull();
    expect(urlFor(provider, call('messages.batches', null, { resourcePath: '/messages/batches' }))).toBeNull();
    expect(urlFor(provider, call('chat.completions'))).toBeNull();
  });

  it('authenticates with x-api-key, sends anthropic-version and names the deployment in the body', () => {
    expect(adapter.dialect).toBe('anthropic');
    expect(adapter.authHeaders(provider)).toEqual({ 'x-api-key': 'secret' });
    expect(adapter.defaultHeaders(provider)).toEqual({ 'anthropic-version': '2023-06-01' });
    expect(adapter.modelInBody(provider)).toBe(true);
  });
});

describe('vertex adapter', () => {
  const provider = config('vertex', 'https://us-east5-aiplatform.googleapis.com/', null, { google: { project: 'my-project', location: 'us-east5', credentialsFile: null } });
  const models = 'https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/publishers';
  const claude = adapterForModel(provider, 'claude-sonnet-4-5@20250929');
  const gemini = adapterForModel(provider, 'gemini-2.5-flash');

  it('serves Claude in Anthropic\'s dialect through :rawPredict and :streamRawPredict, the model in the path', () => {
    expect(claude.dialect).toBe('anthropic');
    expect(claude.urlFor(provider, call('messages', 'claude-sonnet-4-5@20250929'))).toBe(`${models}/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`);
    expect(claude.urlFor(provider, call('messages', 'claude-sonnet-4-5@20250929', { stream: true }))).toBe(`${models}/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict`);
    expect(claude.urlFor(provider, call('messages.count_tokens', 'claude-sonnet-4-5@20250929'))).toBe(`${models}/anthropic/models/count-tokens:rawPredict`);
    expect(claude.urlFor(provider, call('chat.completions', 'claude-sonnet-4-5'))).toBeNull();
    expect(claude.modelInBody(provider)).toBe(false);
  });

  it('finishes Claude\'s body: Vertex\'s anthropic_version in it, no model', () => {
    expect(claude.finishBody?.({ model: 'vertex/claude-x', max_tokens: 8, messages: [] }, call('messages', 'claude-x'))).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 8, messages: [] });
    // Counting names the model in the body (its path is the same for every model).
    expect(claude.finishBody?.({ model: 'vertex/claude-x', messages: [] }, call('messages.count_tokens', 'claude-x'))).toEqual({ anthropic_version: 'vertex-2023-10-16', model: 'claude-x', messages: [] });
  });

  it('serves Gemini in Google\'s dialect, streaming as SSE; the project and location are in every path', () => {
    expect(gemini.dialect).toBe('google');
    expect(gemini.urlFor(provider, call('genai.generateContent', 'models/gemini-2.5-flash'))).toBe(`${models}/google/models/gemini-2.5-flash:generateContent`);
    expect(gemini.urlFor(provider, call('genai.streamGenerateContent', 'gemini-2.5-flash', { stream: true }))).toBe(`${models}/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`);
    expect(gemini.finishBody).toBeUndefined();
    expect(gemini.urlFor(config('vertex', 'https://x.example'), call('genai.generateContent', 'gemini-2.5-flash'))).toBeNull();
  });

  it('sends no static key (its token is minted per call) and knows the global endpoint', () => {
    expect(claude.authHeaders(provider)).toEqual({});
    expect(gemini.authHeaders(provider)).toEqual({});
    expect(vertexBaseUrl('global')).toBe('https://aiplatform.googleapis.com');
    expect(vertexBaseUrl('europe-west1')).toBe('https://europe-west1-aiplatform.googleapis.com');
    expect(adapterForModel(config('anthropic', 'https://api.anthropic.com'), 'claude-x')).toBe(adapterFor('anthropic'));
  });
});

describe('gateway adapter', () => {
  const provider = config('gateway', 'https://hub.example.com/', 'sk-gw-live');
  const adapter = adapterFor('gateway');

  it('forwards the client path for every operation, with x-gw-vk', () => {
    expect(adapter.dialect).toBe('any');
    for (const operation of ['chat.completions', 'messages', 'genai.generateContent', 'passthrough'] as const) {
      expect(urlFor(provider, call(operation, 'm', { clientPath: '/v1/messages?beta=true' }))).toBe('https://hub.example.com/v1/messages?beta=true');
    }
    expect(urlFor(provider, call('chat.completions'))).toBeNull();
    expect(adapter.authHeaders(provider)).toEqual({ 'x-gw-vk': 'sk-gw-live' });
    expect(adapter.defaultHeaders(provider)).toEqual({});
  });
});

describe('mock adapter', () => {
  it('answers every dialect in-process, with a mock: URL that is never fetched', () => {
    const provider = config('mock', 'mock:', null);
    const adapter = adapterFor('mock');
    expect(adapter.dialect).toBe('any');
    expect(urlFor(provider, call('chat.completions', 'echo'))).toBe('mock:chat.completions/echo');
    expect(urlFor(provider, call('models.list', null))).toBe('mock:models.list');
    expect(urlFor(provider, call('passthrough', null, { clientPath: '/v1/files' }))).toBeNull();
    expect(adapter.authHeaders(provider)).toEqual({});
  });
});
