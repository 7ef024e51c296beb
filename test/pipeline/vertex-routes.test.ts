// Vertex AI as a client format, in-process: Claude Code's rawPredict, streamRawPredict and
// count-tokens calls and the GenAI SDK's Vertex-mode calls are routed, decoded into the
// Anthropic or GenAI call they carry, answered in that shape, and recorded like any other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicModelForVertex, readVertexAnthropicCall } from '../../src/pipeline/decode/read-vertex-call.js';
import { guessDialect, ROUTE_TABLE } from '../../src/pipeline/route-table.js';
import type { PipelineRequest } from '../../src/pipeline/pipeline-types.js';
import { startInProcessGateway, type InProcessGateway } from '../support/in-process-gateway.js';

const ANTHROPIC_BASE = '/v1/projects/acme-proj/locations/us-east5/publishers/anthropic/models';
const GOOGLE_BASE = '/v1beta1/projects/acme-proj/locations/us-central1/publishers/google/models';
const MESSAGES = { anthropic_version: 'vertex-2023-10-16', max_tokens: 64, messages: [{ role: 'user', content: 'hello vertex' }] };

/** Just what readVertexAnthropicCall reads of a request. */
function vertexRequest(rest: string, body: unknown): PipelineRequest {
  const route = ROUTE_TABLE.find((entry) => entry.operation === 'vertex.anthropic');
  if (!route) throw new Error('no vertex.anthropic route');
  return {
    id: 'r1', method: 'POST', route, dialect: route.dialect, params: { project: 'p', location: 'l', '*': rest },
    query: new URLSearchParams(), headers: {}, body, rawBody: Buffer.from(JSON.stringify(body)),
    identity: { kind: 'anonymous' } as unknown as PipelineRequest['identity'], signal: new AbortController().signal,
  };
}

describe('Vertex model ids and bodies', () => {
  it('maps a dated Vertex id to the Anthropic id, and leaves any other id alone', () => {
    expect(anthropicModelForVertex('claude-sonnet-4-5@20250929')).toBe('claude-sonnet-4-5-20250929');
    expect(anthropicModelForVertex('claude-opus-5-5')).toBe('claude-opus-5-5');
    expect(anthropicModelForVertex('anthropic/claude-sonnet-4-5')).toBe('anthropic/claude-sonnet-4-5');
    expect(anthropicModelForVertex('claude-x@latest')).toBe('claude-x@latest');
  });

  it('rewrites the body to the first-party shape: model from the path, no anthropic_version, stream from the method', () => {
    const request = vertexRequest('claude-sonnet-4-5@20250929:streamRawPredict', MESSAGES);
    expect(readVertexAnthropicCall(request)).toEqual({ dialect: 'anthropic', operation: 'messages', model: 'claude-sonnet-4-5-20250929', stream: true });
    const sent: unknown = JSON.parse(String(request.rawBody));
    expect(sent).toEqual({ max_tokens: 64, messages: MESSAGES.messages, model: 'claude-sonnet-4-5-20250929', stream: true });
    expect(request.body).toEqual(sent);
    const plain = vertexRequest('claude-opus-5-5:rawPredict', { ...MESSAGES, stream: true });
    expect(readVertexAnthropicCall(plain).stream).toBe(false);
    expect(plain.body).not.toHaveProperty('stream');
  });

  it('reads count-tokens:rawPredict as a count of the model its body names', () => {
    const request = vertexRequest('count-tokens:rawPredict', { ...MESSAGES, model: 'claude-haiku-4-5@20251001' });
    expect(readVertexAnthropicCall(request)).toEqual({ dialect: 'anthropic', operation: 'messages.count_tokens', model: 'claude-haiku-4-5-20251001', stream: false });
    expect(() => readVertexAnthropicCall(vertexRequest('count-tokens:rawPredict', MESSAGES))).toThrow(/model/);
  });

  it('refuses another method and a body that is not an object', () => {
    expect(() => readVertexAnthropicCall(vertexRequest('claude-opus-5-5:predict', MESSAGES))).toThrow(/rawPredict/);
    expect(() => readVertexAnthropicCall(vertexRequest('claude-opus-5-5:rawPredict', [1]))).toThrow(/JSON object/);
  });

  it('guesses the dialect of an unrouted Vertex path from its publisher', () => {
    expect(guessDialect('/v1/projects/p/locations/l/publishers/anthropic/models/x:nope')).toBe('anthropic');
    expect(guessDialect('/v1beta1/projects/p/locations/l/publishers/google/models/x:nope')).toBe('google');
  });
});

describe('Vertex routes through the gateway', () => {
  let gateway: InProcessGateway;
  beforeAll(async () => { gateway = await startInProcessGateway(); });
  afterAll(async () => { await gateway.close(); });

  function post(url: string, body: unknown) {
    return gateway.app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { authorization: `Bearer ${gateway.key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' } });
  }

  it('rawPredict answers an Anthropic message, recorded under the Vertex route', async () => {
    const response = await post(`${ANTHROPIC_BASE}/mock/echo:rawPredict`, MESSAGES);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ type: 'message', role: 'assistant' });
    expect(JSON.stringify(response.json().content)).toContain('hello vertex');
    expect((await gateway.auditRecords()).at(-1)).toMatchObject({
      kind: 'request', status: 200, family: 'anthropic', model: 'mock/echo', route: '/v1/projects/:project/locations/:location/publishers/anthropic/models/*',
    });
  });

  it('streamRawPredict answers Anthropic server-sent events', async () => {
    const response = await post(`${ANTHROPIC_BASE}/mock/echo:streamRawPredict`, { ...MESSAGES, stream: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    expect(response.body).toContain('event: message_start');
    expect(response.body).toContain('event: message_stop');
  });

  it('count-tokens:rawPredict answers input_tokens', async () => {
    const response = await post(`${ANTHROPIC_BASE}/count-tokens:rawPredict`, { ...MESSAGES, model: 'mock/echo' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().input_tokens).toBeGreaterThan(0);
  });

  it('errors come in the Anthropic shape', async () => {
    const response = await post(`${ANTHROPIC_BASE}/mock/echo:predict`, MESSAGES);
    expect(response.statusCode).toBe(501);
    expect(response.json()).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    const missing = await post(`${ANTHROPIC_BASE}/count-tokens:rawPredict`, MESSAGES);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('Gemini on Vertex: generateContent answers GenAI candidates, an unserved method a Google-shaped 501', async () => {
    const response = await post(`${GOOGLE_BASE}/mock/echo:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'hello gemini' }] }] });
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.stringify(response.json().candidates)).toContain('hello gemini');
    const predict = await post(`${GOOGLE_BASE}/text-embedding-005:predict`, { instances: [{ content: 'hi' }] });
    expect(predict.statusCode).toBe(501);
    expect(predict.json()).toMatchObject({ error: { code: 501 } });
  });

  it('without a credential: refused like every other route', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: `${ANTHROPIC_BASE}/mock/echo:rawPredict`, payload: JSON.stringify(MESSAGES), headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ type: 'error' });
  });
});

describe('the request Claude Code recorded in Vertex mode (test/fixtures/vertex-clients)', () => {
  it('decodes to an Anthropic Messages stream of the model in its path, every other field kept', async () => {
    const { readFile } = await import('node:fs/promises');
    const recorded = JSON.parse(await readFile(new URL('../fixtures/vertex-clients/claude-code-stream-raw-predict.json', import.meta.url), 'utf8')) as { path: string; body: Record<string, unknown> };
    const rest = recorded.path.slice(recorded.path.indexOf('/models/') + '/models/'.length);
    const request = vertexRequest(rest, recorded.body);
    expect(readVertexAnthropicCall(request)).toEqual({ dialect: 'anthropic', operation: 'messages', model: 'claude-opus-5-5', stream: true });
    const { anthropic_version: _dropped, ...kept } = recorded.body;
    expect(request.body).toEqual({ ...kept, model: 'claude-opus-5-5' });
  });
});
