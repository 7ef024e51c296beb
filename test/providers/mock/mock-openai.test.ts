import { describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { dataOf, mock, readEvents, readJson } from './read-mock-response.js';

const messages = [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hello there' }];
const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: {} } } }];

describe('mock OpenAI chat', () => {
  it('answers JSON with the echoed text, model and integer usage', async () => {
    const response = mock({ operation: 'chat', model: 'mock/echo', body: { model: 'mock/echo', messages }, stream: false });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const completion = (await readJson(response)) as unknown as OpenAI.ChatCompletion;
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('mock/echo');
    expect(completion.id).toBe('chatcmpl-fixed');
    expect(completion.created).toBe(1_700_000_000);
    expect(completion.choices[0]?.message.content).toBe('mock reply: hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: Math.ceil('be briefhello there'.length / 4), completion_tokens: 6, total_tokens: 11 });
  });

  it('reads text parts of array content', async () => {
    const body = { messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'b' }] }] };
    const completion = (await readJson(mock({ operation: 'chat', model: 'mock/x', body, stream: false }))) as unknown as OpenAI.ChatCompletion;
    expect(completion.choices[0]?.message.content).toBe('mock reply: ab');
  });

  it('streams role first, text deltas, finish, usage chunk and [DONE]', async () => {
    const body = { messages, stream: true, stream_options: { include_usage: true } };
    const response = mock({ operation: 'chat', model: 'mock/echo', body, stream: true });
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = await readEvents(response);
    expect(events.at(-1)).toEqual({ data: '[DONE]' });
    const chunks = dataOf(events) as unknown as OpenAI.ChatCompletionChunk[];
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'mock/echo')).toBe(true);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('mock reply: hello there');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage?.completion_tokens).toBe(6);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('streams without usage when include_usage is not asked', async () => {
    const chunks = dataOf(await readEvents(mock({ operation: 'chat', model: 'mock/echo', body: { messages }, stream: true })));
    expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
  });

  it('calls the first tool with {} when tools are offered', async () => {
    const completion = (await readJson(mock({ operation: 'chat', model: 'mock/echo', body: { messages, tools }, stream: false }))) as unknown as OpenAI.ChatCompletion;
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([{ id: 'call_fixed', type: 'function', function: { name: 'read_file', arguments: '{}' } }]);
  });

  it('streams a tool call keyed by index with arguments joining to {}', async () => {
    const chunks = dataOf(await readEvents(mock({ operation: 'chat', model: 'mock/echo', body: { messages, tools }, stream: true }))) as unknown as OpenAI.ChatCompletionChunk[];
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: 'call_fixed', type: 'function', function: { name: 'read_file', arguments: '' } });
    expect(calls.map((call) => call.function?.arguments ?? '').join('')).toBe('{}');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('answers with text after a tool result', async () => {
    const body = {
      tools,
      messages: [...messages, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'read_file', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c', content: 'file body' }],
    };
    const completion = (await readJson(mock({ operation: 'chat', model: 'mock/echo', body, stream: false }))) as unknown as OpenAI.ChatCompletion;
    expect(completion.choices[0]?.message.content).toBe('mock reply: hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('fails with the status named by mock/error-<status> in OpenAI error shape', async () => {
    const response = mock({ operation: 'chat', model: 'mock/error-429', body: { messages }, stream: true });
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('1');
    const body = await readJson(response);
    expect(body).toEqual({ error: { message: expect.stringContaining('429'), type: 'rate_limit_exceeded', param: null, code: 'rate_limit_exceeded' } });
    expect(mock({ operation: 'chat', model: 'mock/error-503', body: {}, stream: false }).status).toBe(503);
  });

  it('refuses a body that is not an object with 400', async () => {
    const response = mock({ operation: 'chat', model: 'mock/echo', body: 'nope', stream: false });
    expect(response.status).toBe(400);
    expect(await readJson(response)).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

describe('mock OpenAI completions', () => {
  it('answers JSON', async () => {
    const body = await readJson(mock({ operation: 'completions', model: 'mock/echo', body: { prompt: 'say hi' }, stream: false }));
    expect(body).toMatchObject({ object: 'text_completion', model: 'mock/echo', choices: [{ text: 'mock reply: say hi', index: 0, finish_reason: 'stop' }] });
  });

  it('streams with [DONE] and an optional usage chunk', async () => {
    const body = { prompt: 'say hi', stream_options: { include_usage: true } };
    const events = await readEvents(mock({ operation: 'completions', model: 'mock/echo', body, stream: true }));
    const chunks = dataOf(events) as unknown as OpenAI.Completion[];
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(chunks.map((chunk) => chunk.choices[0]?.text ?? '').join('')).toBe('mock reply: say hi');
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });
});

describe('mock OpenAI embeddings and models', () => {
  it('returns deterministic float vectors of the asked dimensions', async () => {
    const first = await readJson(mock({ operation: 'embeddings', model: 'mock/embed', body: { input: ['a', 'b'], dimensions: 8 }, stream: false }));
    const again = await readJson(mock({ operation: 'embeddings', model: 'mock/embed', body: { input: ['a', 'b'], dimensions: 8 }, stream: false }));
    expect(first).toEqual(again);
    const data = (first as unknown as OpenAI.CreateEmbeddingResponse).data;
    expect(data).toHaveLength(2);
    expect(data[0]?.embedding).toHaveLength(8);
    expect(data[0]?.embedding).not.toEqual(data[1]?.embedding);
  });

  it('returns base64 little-endian float32 that decodes to the same floats', async () => {
    const floats = (await readJson(mock({ operation: 'embeddings', model: 'mock/embed', body: { input: 'hello' }, stream: false }))) as unknown as OpenAI.CreateEmbeddingResponse;
    const encoded = (await readJson(mock({ operation: 'embeddings', model: 'mock/embed', body: { input: 'hello', encoding_format: 'base64' }, stream: false }))) as unknown as { data: Array<{ embedding: string }> };
    const bytes = Buffer.from(encoded.data[0]?.embedding ?? '', 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
    expect(decoded).toEqual(floats.data[0]?.embedding);
  });

  it('lists mock models', async () => {
    const body = await readJson(mock({ operation: 'models', model: '', body: undefined, stream: false }));
    expect(body).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ id: 'mock/echo', object: 'model' })]) });
  });
});
