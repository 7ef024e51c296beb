// The official `@google/genai` SDK through `gw serve` to a fake Gemini API:
// :generateContent, :streamGenerateContent?alt=sse (relayed as it arrives),
// :countTokens, :embedContent and :batchEmbedContents under /genai (API version v1, the SDK's
// default since 3.x) and bare /v1 and /v1beta (older SDKs and Gemini CLI), provider/model names
// in the path, and the 404 in Google's shape.
import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedText } from '../../support/fake-providers/fake-request-text.js';
import { auditRecord, auditRecordWhere, expectUpstreamCredentials, last, post, recordingFetch, startRig, stopAndVerify, type Rig } from './support.js';

let rig: Rig;
let ai: GoogleGenAI;
let sent: ReturnType<typeof recordingFetch>;

beforeAll(async () => {
  rig = await startRig({ eventDelayMs: 50 });
  sent = recordingFetch();
  ai = new GoogleGenAI({ apiKey: rig.key, httpOptions: { baseUrl: `${rig.gw.url}/genai`, fetch: sent.fetch } });
}, 30_000);

afterAll(async () => { await rig?.close(); });

const PROMPT = 'one two three four five six';

describe('generateContent', () => {
  it('bare gemini- name: answer back, the body byte for byte, x-goog-api-key swapped, audit with tokens', async () => {
    const result = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello there', config: { temperature: 0.5 } });
    expect(result.text).toBe('echo: hello there');
    expect(result.candidates?.[0]?.finishReason).toBe('STOP');

    const upstream = last(rig.gemini);
    expect(sent.urls.at(-1)).toBe(`${rig.gw.url}/genai/v1/models/gemini-2.5-flash:generateContent`);
    // Upstream, gw speaks v1beta (a superset of v1) as it does for every GenAI call.
    expect(upstream.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(upstream.body).toBe(sent.bodies.at(-1));
    expectUpstreamCredentials(upstream, 'gemini', rig.gemini, rig.key);
    expect(upstream.headers['x-goog-api-client']).toBe(sent.headers.at(-1)!.get('x-goog-api-client'));

    const requestId = result.sdkHttpResponse?.headers?.['x-request-id'];
    const audit = requestId
      ? await auditRecord(rig.gw.home, requestId)
      : await auditRecordWhere(rig.gw.home, (line) => line.operation === 'genai.models' && line.model === 'gemini-2.5-flash');
    expect(audit).toMatchObject({
      family: 'google', model: 'gemini-2.5-flash', provider: 'gemini', status: 200,
      tokens: { input: result.usageMetadata!.promptTokenCount, output: result.usageMetadata!.candidatesTokenCount },
    });
  });

  it('provider/model in the path (/genai/v1/models/gemini/gemini-2.5-flash:generateContent) routes and is unwrapped', async () => {
    const result = await ai.models.generateContent({ model: 'gemini/gemini-2.5-flash', contents: 'prefixed' });
    expect(result.text).toBe('echo: prefixed');
    expect(sent.urls.at(-1)).toContain('/genai/v1/models/gemini/gemini-2.5-flash:generateContent');
    expect(last(rig.gemini).path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(last(rig.gemini).body).toBe(sent.bodies.at(-1));
  });

  it('API version v1beta (older SDKs and Gemini CLI), bare and under /genai, works too', async () => {
    const beta = recordingFetch();
    for (const baseUrl of [rig.gw.url, `${rig.gw.url}/genai`]) {
      const client = new GoogleGenAI({ apiKey: rig.key, httpOptions: { baseUrl, apiVersion: 'v1beta', fetch: beta.fetch } });
      const result = await client.models.generateContent({ model: 'gemini-2.5-pro', contents: 'no prefix' });
      expect(result.text).toBe('echo: no prefix');
      expect(last(rig.gemini).path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    }
    expect(beta.urls).toEqual([`${rig.gw.url}/v1beta/models/gemini-2.5-pro:generateContent`, `${rig.gw.url}/genai/v1beta/models/gemini-2.5-pro:generateContent`]);
  });

  it('the bare base at the SDK\'s default API version (v1 since @google/genai 3) works too', async () => {
    const bare = recordingFetch();
    const v1 = new GoogleGenAI({ apiKey: rig.key, httpOptions: { baseUrl: rig.gw.url, fetch: bare.fetch } });
    const result = await v1.models.generateContent({ model: 'gemini-2.5-pro', contents: 'version one' });
    expect(result.text).toBe('echo: version one');
    let streamed = '';
    for await (const chunk of await v1.models.generateContentStream({ model: 'gemini-2.5-pro', contents: 'streamed one' })) streamed += chunk.text ?? '';
    expect(streamed).toBe('echo: streamed one');
    expect(bare.urls[0]).toBe(`${rig.gw.url}/v1/models/gemini-2.5-pro:generateContent`);
    // Upstream, gw speaks v1beta (a superset of v1) as it does for every GenAI call.
    expect(last(rig.gemini).path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent');
  });
});

describe('streamGenerateContent?alt=sse', () => {
  it('arrives record by record, with alt=sse upstream and the usage in the audit', async () => {
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: PROMPT });
    const chunks: Array<{ at: number; text: string; total?: number }> = [];
    for await (const chunk of stream) chunks.push({ at: Date.now(), text: chunk.text ?? '', total: chunk.usageMetadata?.candidatesTokenCount });
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(`echo: ${PROMPT}`);

    const upstream = last(rig.gemini);
    expect(sent.urls.at(-1)).toContain(':streamGenerateContent?alt=sse');
    expect(upstream.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(upstream.query).toEqual({ alt: 'sse' });
    expect(upstream.body).toBe(sent.bodies.at(-1));
    expectUpstreamCredentials(upstream, 'gemini', rig.gemini, rig.key);

    const closedAt = await rig.gemini.waitForClose(upstream);
    expect(chunks.length).toBeGreaterThanOrEqual(7);
    expect(chunks[0]!.at).toBeLessThan(closedAt - 200);
    expect(chunks.at(-1)!.at - chunks[0]!.at).toBeGreaterThanOrEqual(200);

    const audit = await auditRecordWhere(rig.gw.home, (line) => line.model === 'gemini-2.5-flash' && line.route === '/genai/v1/models/*' && (line.tokens as { output?: number } | undefined)?.output === chunks.at(-1)!.total);
    expect(audit).toMatchObject({ provider: 'gemini', status: 200, tokens: { input: expect.any(Number), output: expect.any(Number) } });
  });
});

describe('countTokens and embeddings', () => {
  it(':countTokens', async () => {
    const result = await ai.models.countTokens({ model: 'gemini/gemini-2.5-flash', contents: 'count these words please' });
    expect(result.totalTokens).toBe(Math.ceil('count these words please'.length / 4));
    expect(last(rig.gemini).path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(last(rig.gemini).body).toBe(sent.bodies.at(-1));
    expectUpstreamCredentials(last(rig.gemini), 'gemini', rig.gemini, rig.key);
  });

  it(':embedContent (one input) and :batchEmbedContents (several)', async () => {
    const one = await ai.models.embedContent({ model: 'gemini/gemini-embedding-001', contents: 'alpha' });
    expect(one.embeddings?.[0]?.values).toEqual(embedText('alpha'));
    const single = last(rig.gemini);
    expect(single.path).toMatch(/^\/v1beta\/models\/gemini-embedding-001:(embedContent|batchEmbedContents)$/);
    expect(single.body).toBe(sent.bodies.at(-1));

    const many = await ai.models.embedContent({ model: 'gemini/gemini-embedding-001', contents: ['alpha', 'beta'] });
    expect(many.embeddings?.map((embedding) => embedding.values)).toEqual([embedText('alpha'), embedText('beta')]);
    expect(last(rig.gemini).path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(last(rig.gemini).body).toBe(sent.bodies.at(-1));
    expectUpstreamCredentials(last(rig.gemini), 'gemini', rig.gemini, rig.key);
  });

  it(':embedContent on the wire', async () => {
    const response = await post(rig, '/genai/v1beta/models/gemini-embedding-001:embedContent', { content: { parts: [{ text: 'alpha' }] } }, { 'x-goog-api-key': rig.key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ embedding: { values: embedText('alpha') } });
    expect(last(rig.gemini).path).toBe('/v1beta/models/gemini-embedding-001:embedContent');
  });
});

describe('models list', () => {
  it('GET /genai/v1beta/models answers in the GenAI shape with provider-prefixed names', async () => {
    const response = await fetch(`${rig.gw.url}/genai/v1beta/models`, { headers: { 'x-goog-api-key': rig.key } });
    expect(response.status).toBe(200);
    const body = await response.json() as { models: Array<{ name: string }> };
    expect(body.models.map((model) => model.name)).toEqual(expect.arrayContaining(['models/gemini/gemini-2.5-flash', 'models/openai/gpt-4o-mini']));
  });
});

describe('unknown models', () => {
  it('→ 404 in the Google error shape', async () => {
    const before = rig.gemini.requests.length;
    const response = await post(rig, '/genai/v1beta/models/no-such-model:generateContent', { contents: [{ parts: [{ text: 'x' }] }] }, { 'x-goog-api-key': rig.key });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND', message: expect.stringContaining('no-such-model') } });
    const error = await ai.models.generateContent({ model: 'nosuchprovider/gemini-x', contents: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect(rig.gemini.requests.length).toBe(before);
  });
});

describe('audit trail', () => {
  it('gw stops cleanly and gw audit verify exits 0', async () => { await stopAndVerify(rig); }, 20_000);
});
