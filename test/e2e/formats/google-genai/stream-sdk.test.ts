// The stream encoder's output, served by a local node:http server, read by @google/genai itself.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamPart } from '../../../../src/canonical/response.js';
import { googleGenAiCodec } from '../../../../src/formats/google-genai/index.js';

const PARTS: StreamPart[] = [
  { type: 'response-start', id: 'r1', model: 'upstream-model' },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, delta: 'thinking…' },
  { type: 'reasoning-end', index: 0 },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, delta: 'Hello, ' },
  { type: 'text-delta', index: 1, delta: 'world' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'call_a', name: 'lookup' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"q":' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '"x"}' },
  { type: 'tool-call-end', index: 2 },
  { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 10, outputTokens: 7, reasoningTokens: 2, totalTokens: 17 } },
];

let body = '';
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function encode(parts: StreamPart[]): string {
  let count = 0;
  const encoder = googleGenAiCodec.createStreamEncoder({ model: 'gemini-2.5-flash', context: { ids: () => `id${++count}`, now: () => 0 } });
  return parts.map((part) => encoder.push(part)).join('') + encoder.end();
}

describe('google-genai stream encoder, read by @google/genai', () => {
  it('yields text, thoughts, a whole function call, the finish reason and usage', async () => {
    body = encode(PARTS);
    expect(body).toContain('\r\n\r\n');
    const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl } });
    const chunks = [];
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.text ?? '').join('');
    expect(text).toBe('Hello, world');
    expect(chunks.flatMap((chunk) => chunk.functionCalls ?? [])).toEqual([{ id: 'call_a', name: 'lookup', args: { q: 'x' } }]);
    const last = chunks.at(-1)!;
    expect(last.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last.usageMetadata).toMatchObject({ promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 2, totalTokenCount: 17 });
    expect(chunks[0]!.candidates?.[0]?.content?.parts?.[0]).toEqual({ text: 'thinking…', thought: true });
  });

  it('sends a mid-stream error as Google\'s error object, which the SDK throws', async () => {
    body = encode([PARTS[0]!, PARTS[4]!, PARTS[5]!, { type: 'error', error: { status: 429, kind: 'rate_limit', message: 'slow down' } }]);
    const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl } });
    const read = async (): Promise<void> => {
      for await (const _chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) { /* drain */ }
    };
    await expect(read()).rejects.toThrow(/slow down/);
    expect(body).toContain('"status":"RESOURCE_EXHAUSTED"');
  });

  it('round-trips through its own decoder', () => {
    const decoder = googleGenAiCodec.createStreamDecoder();
    const events = encode(PARTS).split('\r\n\r\n').filter(Boolean).map((frame) => ({ data: frame.slice('data: '.length) }));
    const parts = [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
    expect(parts.filter((part) => part.type === 'text-delta').map((part) => part.type === 'text-delta' && part.delta).join('')).toBe('Hello, world');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 10, outputTokens: 7 } });
  });
});
