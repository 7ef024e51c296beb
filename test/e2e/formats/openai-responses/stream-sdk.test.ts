// The stream encoder's output, served by a local node:http server, read by the openai SDK's
// ResponseStream (which checks output_index / content_index against its own snapshot).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamPart } from '../../../../src/canonical/response.js';
import { openAiResponsesCodec } from '../../../../src/formats/openai-responses/index.js';

const PARTS: StreamPart[] = [
  { type: 'response-start', id: 'msg_upstream', model: 'claude-x' },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, delta: 'Plan: ' },
  { type: 'reasoning-delta', index: 0, delta: 'answer.' },
  { type: 'reasoning-opaque', index: 0, encrypted: 'enc==' },
  { type: 'reasoning-end', index: 0 },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, delta: 'Hello' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'call_a', name: 'read' },
  { type: 'tool-call-start', index: 3, id: 'call_b', name: 'read' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"path":' },
  { type: 'tool-call-delta', index: 3, argumentsDelta: '{"path":"b"}' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '"a"}' },
  { type: 'tool-call-end', index: 2 },
  { type: 'tool-call-end', index: 3 },
  { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 20, cachedReadTokens: 5, outputTokens: 9, reasoningTokens: 3, totalTokens: 29 } },
];

let body = '';
let server: Server;
let client: OpenAI;

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, maxRetries: 0 });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function encode(parts: StreamPart[]): string {
  let count = 0;
  const encoder = openAiResponsesCodec.createStreamEncoder({ model: 'gpt-5', context: { ids: () => `id${++count}`, now: () => 1_700_000_000 } });
  return parts.map((part) => encoder.push(part)).join('') + encoder.end();
}

describe('openai-responses stream encoder, read by the openai SDK', () => {
  it('is accepted by ResponseStream: ordered sequence numbers, completed last, full final response', async () => {
    body = encode(PARTS);
    const stream = client.responses.stream({ model: 'gpt-5', input: 'hi' });
    const types: string[] = [];
    const sequence: number[] = [];
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
    }
    const final = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(sequence).toEqual(sequence.map((_value, index) => index));
    expect(final.output_text).toBe('Hello');
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
    expect(final.output[0]).toMatchObject({ summary: [{ type: 'summary_text', text: 'Plan: answer.' }], encrypted_content: 'enc==' });
    expect(final.output.slice(2).map((item) => item.type === 'function_call' && JSON.parse(item.arguments))).toEqual([{ path: 'a' }, { path: 'b' }]);
    expect(final.usage).toEqual({ input_tokens: 20, input_tokens_details: { cached_tokens: 5 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 29 });
    expect(final.id).toBe('resp_msg_upstream');
  });

  // The bytes end with error then response.failed, as OpenAI documents; openai 7.x raises the
  // error event as an APIError (6.x yielded both events), so its user sees the code and message.
  it('sends an error event then response.failed, as documented, and the SDK throws the error event\'s code and message', async () => {
    body = encode([PARTS[0]!, PARTS[6]!, PARTS[7]!, { type: 'error', error: { status: 529, kind: 'overloaded', message: 'Overloaded' } }]);
    const frames = body.split('\n\n').filter(Boolean);
    expect(frames.slice(-2).map((frame) => frame.split('\n')[0])).toEqual(['event: error', 'event: response.failed']);
    expect(frames.at(-1)).toContain('"status":"failed"');
    expect(frames.at(-1)).toContain('"error":{"code":"server_error","message":"Overloaded"}');
    const types: string[] = [];
    let failure: unknown;
    try {
      for await (const event of await client.responses.create({ model: 'gpt-5', input: 'hi', stream: true })) types.push(event.type);
    } catch (error) {
      failure = error;
    }
    expect(types).toContain('response.output_text.delta');
    expect(types).not.toContain('response.failed');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({ code: 'server_error', message: 'Overloaded' });
  });

  it('uses response.incomplete for a length stop', () => {
    const text = encode([PARTS[0]!, { type: 'finish', finishReason: { unified: 'length' }, usage: {} }]);
    expect(text).toContain('event: response.incomplete');
    expect(text).toContain('"incomplete_details":{"reason":"max_output_tokens"}');
  });

  it('round-trips through its own decoder', () => {
    const decoder = openAiResponsesCodec.createStreamDecoder();
    const events = encode(PARTS).split('\n\n').filter(Boolean).map((frame) => ({ data: frame.split('\ndata: ')[1]! }));
    const parts = [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
    expect(parts).toContainEqual({ type: 'reasoning-opaque', index: 0, encrypted: 'enc==' });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 20, cachedReadTokens: 5 } });
  });
});
