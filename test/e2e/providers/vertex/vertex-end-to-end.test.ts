// Claude and Gemini on Vertex AI through a real `gw serve`: a local server in Vertex's shapes
// (fake-vertex.ts) that takes only access tokens the local Google token endpoint minted
// (google-token-endpoint.ts) for a service-account key made here. gw is configured with Google's
// variables only; the official OpenAI, Anthropic and GenAI SDKs call gw with a gw key. Nothing
// leaves the machine: the token request is tunnelled to the local endpoint, any other host refused.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../../support/gateway-process.js';
import { startFakeProvider, type FakeProvider, type RecordedRequest } from '../../../support/fake-providers/index.js';
import { startGoogleTokenEndpoint, type GoogleTokenEndpoint } from '../../../support/fake-providers/google-token-endpoint.js';
import { auditRecord } from '../../forwarding/support.js';
import { waitUntil } from '../../helpers.js';

const CLAUDE = 'claude-sonnet-4-5@20250929';
const GEMINI = 'gemini-2.5-flash';
const MODELS_PATH = '/v1/projects/gw-test-project/locations/us-east5/publishers';
// google-auth-library refreshes a token in its last 5 minutes (eagerRefreshThresholdMillis): this one is due 4 s after it is minted.
const TOKEN_SECONDS = 300 + 4;
let vertex: FakeProvider;
let google: GoogleTokenEndpoint;
let gw: GatewayProcess;

beforeAll(async () => {
  google = await startGoogleTokenEndpoint();
  google.expiresInSeconds = TOKEN_SECONDS;
  vertex = await startFakeProvider('vertex', { eventDelayMs: 1, acceptsToken: (token) => google.isValid(token) });
  gw = await startGatewayProcess({
    env: {
      GOOGLE_CLOUD_PROJECT: 'gw-test-project', GOOGLE_CLOUD_LOCATION: 'us-east5', GOOGLE_APPLICATION_CREDENTIALS: google.keyFile,
      GOOGLE_VERTEX_BASE_URL: vertex.url, GW_LOG_LEVEL: 'warn', ...google.env,
    },
  });
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await vertex?.close();
  await google?.close();
});

function lastVertexRequest(publisher: 'anthropic' | 'google', method: string, model: string): RecordedRequest {
  const request = vertex.requests.at(-1)!;
  expect(request.path).toBe(`${MODELS_PATH}/${publisher}/models/${model}:${method}`);
  expect(google.isValid(String(request.headers.authorization).replace('Bearer ', ''))).toBe(true);
  expect(JSON.stringify(request.headers)).not.toContain(gw.bootstrapKey);
  return request;
}

it('a token that cannot be minted is a clear error in the caller\'s format, recorded, with no key in it', async () => {
  google.refuseNext(1);
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST', headers: { 'x-api-key': gw.bootstrapKey!, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: `vertex/${CLAUDE}`, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
  });
  const text = await response.text();
  expect(response.status).toBe(502);
  expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('invalid_grant') } });
  expect(text).not.toMatch(/PRIVATE KEY|eyJ/);
  expect(vertex.requests).toHaveLength(0);
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record).toMatchObject({ status: 502, provider: 'vertex' });
  expect(JSON.stringify(record)).toContain('GW_ERR_PROVIDER_TOKEN_UNAVAILABLE');
});

it('an Anthropic client reaches Claude on Vertex through :rawPredict and :streamRawPredict, priced, and counts tokens', async () => {
  const client = new Anthropic({ apiKey: gw.bootstrapKey!, baseURL: gw.url, maxRetries: 0 });
  const { data, response } = await client.messages.create({ model: `vertex/${CLAUDE}`, max_tokens: 64, messages: [{ role: 'user', content: 'hello vertex' }] }).withResponse();
  expect(data.content).toEqual([{ type: 'text', text: 'echo: hello vertex' }]);
  const sent = lastVertexRequest('anthropic', 'rawPredict', CLAUDE).json as Record<string, unknown>;
  expect(sent.anthropic_version).toBe('vertex-2023-10-16');
  expect(sent).not.toHaveProperty('model');
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record).toMatchObject({ status: 200, provider: 'vertex', cost: { price: 'dataset', nano_usd: expect.any(Number) } });

  const stream = client.messages.stream({ model: `vertex/${CLAUDE}`, max_tokens: 64, messages: [{ role: 'user', content: 'stream it' }] });
  expect((await stream.finalMessage()).content).toEqual([{ type: 'text', text: 'echo: stream it' }]);
  expect(lastVertexRequest('anthropic', 'streamRawPredict', CLAUDE).json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });

  const counted = await client.messages.countTokens({ model: `vertex/${CLAUDE}`, messages: [{ role: 'user', content: 'count me' }] });
  expect(counted.input_tokens).toBeGreaterThan(0);
  expect(lastVertexRequest('anthropic', 'rawPredict', 'count-tokens').json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', model: CLAUDE });
});

it('an OpenAI client reaches Claude and Gemini on Vertex through translation, streamed and not', async () => {
  const client = new OpenAI({ apiKey: gw.bootstrapKey!, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const claude = await client.chat.completions.create({ model: `vertex/${CLAUDE}`, messages: [{ role: 'user', content: 'from openai' }] });
  expect(claude.choices[0]?.message.content).toBe('echo: from openai');
  expect(lastVertexRequest('anthropic', 'rawPredict', CLAUDE).json).not.toHaveProperty('model');
  const { data: gemini, response } = await client.chat.completions.create({ model: `vertex/${GEMINI}`, messages: [{ role: 'user', content: 'to gemini' }] }).withResponse();
  expect(gemini.choices[0]?.message.content).toBe('echo: to gemini');
  lastVertexRequest('google', 'generateContent', GEMINI);
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record).toMatchObject({ status: 200, provider: 'vertex', cost: { price: 'dataset', nano_usd: expect.any(Number) } });
  let streamed = '';
  for await (const chunk of await client.chat.completions.create({ model: `vertex/${GEMINI}`, stream: true, messages: [{ role: 'user', content: 'gemini stream' }] })) {
    streamed += chunk.choices[0]?.delta.content ?? '';
  }
  expect(streamed).toBe('echo: gemini stream');
  expect(lastVertexRequest('google', 'streamGenerateContent', GEMINI).query).toMatchObject({ alt: 'sse' });
});

it('a GenAI SDK client reaches Gemini on Vertex, streamed and not', async () => {
  const ai = new GoogleGenAI({ apiKey: gw.bootstrapKey!, httpOptions: { baseUrl: `${gw.url}/genai` } });
  const answer = await ai.models.generateContent({ model: `vertex/${GEMINI}`, contents: 'hello from genai' });
  expect(answer.text).toBe('echo: hello from genai');
  lastVertexRequest('google', 'generateContent', GEMINI);
  let text = '';
  for await (const chunk of await ai.models.generateContentStream({ model: `vertex/${GEMINI}`, contents: 'genai stream' })) text += chunk.text ?? '';
  expect(text).toBe('echo: genai stream');
  lastVertexRequest('google', 'streamGenerateContent', GEMINI);
});

it('the access token is cached, then minted again before it expires; no other host is reached', async () => {
  // Every call so far went out with a minted token, and they shared few: the library caches them.
  expect(google.minted.length).toBeGreaterThanOrEqual(1);
  expect(google.minted.length).toBeLessThan(vertex.requests.length);
  const minted = google.minted.length;
  const client = new OpenAI({ apiKey: gw.bootstrapKey!, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  // Tokens live TOKEN_SECONDS; the library mints a new one in a token's last five minutes, so one
  // is due a few seconds after it was minted: calls keep working, with a fresh token.
  await waitUntil(async () => {
    const completion = await client.chat.completions.create({ model: `vertex/${GEMINI}`, messages: [{ role: 'user', content: 'again' }] });
    expect(completion.choices[0]?.message.content).toBe('echo: again');
    return google.minted.length > minted;
  }, { timeoutMs: 20_000, intervalMs: 200, what: 'a second access token' });
  expect(String(vertex.requests.at(-1)!.headers.authorization)).toBe(`Bearer ${google.minted.at(-1)!.token}`);
  expect(google.refused).toEqual(['refused by the test']);
  expect(google.otherHosts).toEqual([]);
});
