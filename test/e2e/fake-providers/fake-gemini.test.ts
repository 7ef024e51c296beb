import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoogleGenAI } from '@google/genai';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/start-fake-provider.js';

let fake: FakeProvider;
let client: GoogleGenAI;

beforeAll(async () => {
  fake = await startFakeProvider('gemini', { apiKey: 'gm-fake' });
  client = new GoogleGenAI({ apiKey: 'gm-fake', httpOptions: { baseUrl: fake.url } });
});
afterAll(async () => fake.close());

describe('fake Gemini with @google/genai', () => {
  it('answers generateContent echoing the text and model', async () => {
    const response = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello fake gemini' });
    expect(response.text).toBe('echo: hello fake gemini');
    expect(response.modelVersion).toBe('gemini-2.5-flash');
    expect(response.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
    const recorded = fake.requests.at(-1);
    // @google/genai 3 calls API version v1 by default.
    expect(recorded?.path).toBe('/v1/models/gemini-2.5-flash:generateContent');
    expect(recorded?.headers['x-goog-api-key']).toBe('gm-fake');
  });

  it('answers at API version v1beta too (older SDKs, Gemini CLI and gw upstream call it)', async () => {
    const beta = new GoogleGenAI({ apiKey: 'gm-fake', httpOptions: { baseUrl: fake.url, apiVersion: 'v1beta' } });
    const response = await beta.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello beta' });
    expect(response.text).toBe('echo: hello beta');
    expect(fake.requests.at(-1)?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
  });

  it('streams with alt=sse, records spread over time', async () => {
    const stream = await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hello fake gemini' });
    const arrivals: number[] = [];
    let text = '';
    let last: Awaited<ReturnType<typeof client.models.generateContent>> | undefined;
    for await (const chunk of stream) {
      arrivals.push(Date.now());
      text += chunk.text ?? '';
      last = chunk;
    }
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/models/gemini-2.5-flash:streamGenerateContent', query: { alt: 'sse' } });
    expect(text).toBe('echo: hello fake gemini');
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last?.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(50);
  });

  it('calls a function when tools are offered', async () => {
    const response = await client.models.generateContent({
      model: 'gemini-2.5-flash', contents: 'hello fake gemini',
      config: { tools: [{ functionDeclarations: [{ name: 'lookup', description: 'look up' }] }] },
    });
    expect(response.functionCalls).toEqual([{ name: 'lookup', args: { text: 'hello fake gemini' } }]);
  });

  it('counts tokens, embeds one and many contents, lists models', async () => {
    const count = await client.models.countTokens({ model: 'gemini-2.5-flash', contents: 'hello fake gemini' });
    expect(count.totalTokens).toBeGreaterThan(0);
    const one = await client.models.embedContent({ model: 'gemini-embedding-001', contents: 'a' });
    expect(one.embeddings?.[0]?.values).toHaveLength(8);
    const many = await client.models.embedContent({ model: 'gemini-embedding-001', contents: ['a', 'b'] });
    expect(fake.requests.at(-1)?.path).toBe('/v1/models/gemini-embedding-001:batchEmbedContents');
    expect(many.embeddings?.[0]?.values).toEqual(one.embeddings?.[0]?.values);
    const pager = await client.models.list();
    const names: string[] = [];
    for await (const model of pager) names.push(model.name ?? '');
    expect(names).toContain('models/gemini-2.5-flash');
  });

  it('fails with the Google error shape', async () => {
    fake.setBehaviour({ status: 429, errorMessage: 'quota' }, { times: 1 });
    const error = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 429 });
    expect(String((error as Error).message)).toContain('RESOURCE_EXHAUSTED');
  });

  it('refuses a wrong key with 400 API_KEY_INVALID', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'nope', httpOptions: { baseUrl: fake.url } });
    const error = await wrong.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400 });
    expect(String((error as Error).message)).toContain('API_KEY_INVALID');
  });

  it('streams a JSON array without alt=sse', async () => {
    const response = await fetch(`${fake.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, {
      method: 'POST', headers: { 'x-goog-api-key': 'gm-fake', 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi there' }] }] }),
    });
    const records = (await response.json()) as Array<{ candidates: Array<{ content: { parts: Array<{ text: string }> } }> }>;
    expect(records.map((record) => record.candidates[0]?.content.parts[0]?.text).join('')).toBe('echo: hi there');
  });
});
