import { describe, expect, it } from 'vitest';
import type { GenerateContentResponse } from '@google/genai';
import { dataOf, mock, readChunks, readEvents, readJson } from './read-mock-response.js';

const body = { systemInstruction: { parts: [{ text: 'be brief' }] }, contents: [{ role: 'user', parts: [{ text: 'hello there' }] }] };
const tools = [{ functionDeclarations: [{ name: 'read_file', parameters: { type: 'OBJECT', properties: {} } }] }];

describe('mock Google GenAI', () => {
  it('answers generateContent with candidates, usageMetadata and the model', async () => {
    const response = (await readJson(mock({ operation: 'generateContent', model: 'mock/echo', body, stream: false }))) as unknown as GenerateContentResponse;
    expect(response.candidates?.[0]?.content?.parts).toEqual([{ text: 'mock reply: hello there' }]);
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.modelVersion).toBe('mock/echo');
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 6, totalTokenCount: 11 });
  });

  it('streams data-only SSE records framed with \\r\\n and usage on the last', async () => {
    const response = mock({ operation: 'streamGenerateContent', model: 'mock/echo', body, stream: true });
    expect(response.headers['content-type']).toBe('text/event-stream');
    const raw = Buffer.concat(await readChunks(mock({ operation: 'streamGenerateContent', model: 'mock/echo', body, stream: true }))).toString();
    expect(raw.endsWith('}\r\n\r\n')).toBe(true);
    const events = await readEvents(response);
    expect(events.every((event) => event.event === undefined)).toBe(true);
    const records = dataOf(events) as unknown as GenerateContentResponse[];
    expect(records.length).toBeGreaterThan(1);
    expect(records.map((record) => record.candidates?.[0]?.content?.parts?.[0]?.text).join('')).toBe('mock reply: hello there');
    expect(records.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(records.at(-1)?.usageMetadata?.candidatesTokenCount).toBe(6);
    expect(records[0]?.candidates?.[0]?.finishReason).toBeUndefined();
  });

  it('calls the first function with {} when tools are offered', async () => {
    const response = (await readJson(mock({ operation: 'generateContent', model: 'mock/echo', body: { ...body, tools }, stream: false }))) as unknown as GenerateContentResponse;
    expect(response.candidates?.[0]?.content?.parts).toEqual([{ functionCall: { name: 'read_file', args: {} } }]);
    const records = dataOf(await readEvents(mock({ operation: 'streamGenerateContent', model: 'mock/echo', body: { ...body, tools }, stream: true })));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ candidates: [{ content: { parts: [{ functionCall: { name: 'read_file', args: {} } }] } }] });
  });

  it('answers with text after a functionResponse', async () => {
    const contents = [
      ...body.contents,
      { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { content: 'x' } } }] },
    ];
    const response = (await readJson(mock({ operation: 'generateContent', model: 'mock/echo', body: { ...body, tools, contents }, stream: false }))) as unknown as GenerateContentResponse;
    expect(response.candidates?.[0]?.content?.parts).toEqual([{ text: 'mock reply: hello there' }]);
  });

  it('fails with the Google error shape', async () => {
    const response = mock({ operation: 'generateContent', model: 'mock/error-429', body, stream: false });
    expect(response.status).toBe(429);
    expect(await readJson(response)).toEqual({ error: { code: 429, message: expect.any(String), status: 'RESOURCE_EXHAUSTED' } });
    expect(await readJson(mock({ operation: 'countTokens', model: 'mock/error-503', body, stream: false }))).toMatchObject({ error: { status: 'UNAVAILABLE' } });
  });

  it('counts tokens, also inside generateContentRequest', async () => {
    expect(await readJson(mock({ operation: 'countTokens', model: 'mock/echo', body, stream: false }))).toMatchObject({ totalTokens: 5 });
    expect(await readJson(mock({ operation: 'countTokens', model: 'mock/echo', body: { generateContentRequest: body }, stream: false }))).toMatchObject({ totalTokens: 5 });
  });

  it('embeds one and many contents deterministically', async () => {
    const one = await readJson(mock({ operation: 'embedContent', model: 'mock/embed', body: { content: { parts: [{ text: 'a' }] }, outputDimensionality: 4 }, stream: false }));
    const many = await readJson(mock({
      operation: 'batchEmbedContents', model: 'mock/embed', stream: false,
      body: { requests: [{ model: 'models/mock/embed', content: { parts: [{ text: 'a' }] }, outputDimensionality: 4 }, { content: { parts: [{ text: 'b' }] } }] },
    }));
    const embeddings = many.embeddings as Array<{ values: number[] }>;
    expect(embeddings[0]).toEqual(one.embedding);
    expect((one.embedding as { values: number[] }).values).toHaveLength(4);
    expect(embeddings[1]?.values).toHaveLength(16);
  });
});
