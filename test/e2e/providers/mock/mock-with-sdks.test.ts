// The official SDKs read the mock's answers: a tiny HTTP shim (standing in for
// the gateway's routes) turns each path into a MockOperation and writes the
// MockResponse as it comes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { respondAsMock, type MockOperation } from '../../../../src/providers/mock/respond-as-mock.js';

const ROUTES: Record<string, MockOperation> = {
  '/v1/chat/completions': 'chat', '/v1/completions': 'completions', '/v1/embeddings': 'embeddings', '/v1/models': 'models',
  '/v1/messages': 'messages', '/v1/messages/count_tokens': 'count_tokens',
};

function routeOf(path: string, body: Record<string, unknown>): { operation: MockOperation; model: string } | undefined {
  // GenAI at API version v1 (@google/genai 3's default) and v1beta (older SDKs, Gemini CLI), as gw serves both.
  const google = /^\/v1(?:beta)?\/models\/(.+):(\w+)$/.exec(path);
  if (google) return { operation: google[2] as MockOperation, model: google[1] ?? '' };
  const operation = ROUTES[path];
  return operation ? { operation, model: String(body.model ?? '') } : undefined;
}

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => void (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const route = routeOf(path, body);
    if (!route) { response.writeHead(404).end(); return; }
    const answer = respondAsMock({ ...route, body, stream: body.stream === true });
    response.writeHead(answer.status, answer.headers);
    for await (const chunk of answer.body) response.write(chunk);
    response.end();
  })());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

describe('the official SDKs accept the mock answers', () => {
  it('openai: chat JSON and stream, tool call, embeddings, error', async () => {
    const client = new OpenAI({ apiKey: 'x', baseURL: `${url}/v1`, maxRetries: 0 });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'ping' }];
    const completion = await client.chat.completions.create({ model: 'mock/echo', messages });
    expect(completion.choices[0]?.message.content).toBe('mock reply: ping');
    const final = await client.chat.completions.stream({ model: 'mock/echo', messages, stream_options: { include_usage: true } }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('mock reply: ping');
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }];
    const called = await client.chat.completions.stream({ model: 'mock/echo', messages, tools }).finalChatCompletion();
    expect(called.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'f', arguments: '{}' } });
    const floats = await client.embeddings.create({ model: 'mock/embed', input: 'ping', encoding_format: 'float' });
    const decoded = await client.embeddings.create({ model: 'mock/embed', input: 'ping' }); // base64 by default
    expect(decoded.data[0]?.embedding).toEqual(floats.data[0]?.embedding);
    await expect(client.chat.completions.create({ model: 'mock/error-404', messages })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('anthropic: messages JSON and stream, tool use, count_tokens, error', async () => {
    const client = new Anthropic({ apiKey: 'x', baseURL: url, maxRetries: 0 });
    const request = { model: 'mock/echo', max_tokens: 10, messages: [{ role: 'user' as const, content: 'ping' }] };
    expect((await client.messages.create(request)).content).toEqual([{ type: 'text', text: 'mock reply: ping' }]);
    const streamed = await client.messages.stream(request).finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: 'mock reply: ping' }]);
    expect(streamed.usage.output_tokens).toBe(4);
    const tools = [{ name: 'f', input_schema: { type: 'object' as const, properties: {} } }];
    const used = await client.messages.stream({ ...request, tools }).finalMessage();
    expect(used.content[0]).toMatchObject({ type: 'tool_use', name: 'f', input: {} });
    expect((await client.messages.countTokens({ model: 'mock/echo', messages: request.messages })).input_tokens).toBe(1);
    await expect(client.messages.create({ ...request, model: 'mock/error-529' })).rejects.toMatchObject({ status: 529, error: { error: { type: 'overloaded_error' } } });
  });

  it('google genai: generateContent, stream, function call, countTokens, embeddings, error', async () => {
    const client = new GoogleGenAI({ apiKey: 'x', httpOptions: { baseUrl: url } });
    expect((await client.models.generateContent({ model: 'mock/echo', contents: 'ping' })).text).toBe('mock reply: ping');
    let text = '';
    for await (const chunk of await client.models.generateContentStream({ model: 'mock/echo', contents: 'ping' })) text += chunk.text ?? '';
    expect(text).toBe('mock reply: ping');
    const called = await client.models.generateContent({ model: 'mock/echo', contents: 'ping', config: { tools: [{ functionDeclarations: [{ name: 'f' }] }] } });
    expect(called.functionCalls).toEqual([{ name: 'f', args: {} }]);
    expect((await client.models.countTokens({ model: 'mock/echo', contents: 'ping' })).totalTokens).toBe(1);
    const many = await client.models.embedContent({ model: 'mock/embed', contents: ['a', 'b'] });
    expect(many.embeddings).toHaveLength(2);
    await expect(client.models.generateContent({ model: 'mock/error-503', contents: 'ping' })).rejects.toMatchObject({ status: 503 });
    const beta = new GoogleGenAI({ apiKey: 'x', httpOptions: { baseUrl: url, apiVersion: 'v1beta' } });
    expect((await beta.models.generateContent({ model: 'mock/echo', contents: 'ping' })).text).toBe('mock reply: ping');
  });
});
