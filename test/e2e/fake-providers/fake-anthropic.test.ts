import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/start-fake-provider.js';

let fake: FakeProvider;
let client: Anthropic;

beforeAll(async () => {
  fake = await startFakeProvider('anthropic', { apiKey: 'sk-ant-fake' });
  client = new Anthropic({ apiKey: 'sk-ant-fake', baseURL: fake.url, maxRetries: 0 });
});
afterAll(async () => fake.close());

const request = { model: 'claude-sonnet-4-20250514', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hello fake claude' }] };

describe('fake Anthropic with @anthropic-ai/sdk', () => {
  it('answers messages JSON echoing the text and model', async () => {
    const message = await client.messages.create(request);
    expect(message.content).toEqual([{ type: 'text', text: 'echo: hello fake claude' }]);
    expect(message.model).toBe('claude-sonnet-4-20250514');
    expect(message.stop_reason).toBe('end_turn');
    expect(fake.requests.at(-1)?.headers['anthropic-version']).toBeDefined();
  });

  it('streams the full event sequence spread over time', async () => {
    const stream = await client.messages.create({ ...request, stream: true });
    const types: string[] = [];
    const arrivals: number[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      arrivals.push(Date.now());
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    expect(types[0]).toBe('message_start');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(text).toBe('echo: hello fake claude');
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(100);
  });

  it('streams tool use whose input_json_delta pieces join to the input', async () => {
    const tools = [{ name: 'lookup', input_schema: { type: 'object' as const, properties: {} } }];
    const final = await client.messages.stream({ ...request, tools }).finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[0]).toMatchObject({ type: 'tool_use', name: 'lookup', input: { text: 'hello fake claude' } });
  });

  it('serves /v1/messages?beta=true, count_tokens and models', async () => {
    // Claude Code always posts to /v1/messages?beta=true.
    const beta = await fetch(`${fake.url}/v1/messages?beta=true`, {
      method: 'POST', headers: { 'x-api-key': 'sk-ant-fake', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: JSON.stringify(request),
    });
    expect(await beta.json()).toMatchObject({ content: [{ text: 'echo: hello fake claude' }] });
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/messages', query: { beta: 'true' } });
    const count = await client.messages.countTokens({ model: request.model, messages: request.messages });
    expect(count.input_tokens).toBeGreaterThan(0);
    const models = await client.models.list();
    expect(models.data[0]?.id).toBe('claude-sonnet-4-20250514');
  });

  it('fails with the real error shape and retry-after', async () => {
    fake.setBehaviour({ status: 429 }, { times: 1 });
    const error = await client.messages.create(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const rateLimit = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(rateLimit.headers?.get('retry-after')).toBe('1');
    expect(rateLimit.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    fake.setBehaviour({ status: 529 }, { times: 1 });
    await expect(client.messages.create(request)).rejects.toMatchObject({ status: 529 });
  });

  it('refuses a missing anthropic-version like the real API', async () => {
    const response = await fetch(`${fake.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'sk-ant-fake', 'content-type': 'application/json' }, body: JSON.stringify(request) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('resets the socket mid-stream and records the close', async () => {
    fake.setBehaviour({ resetAfterEvents: 3 }, { times: 1 });
    const stream = await client.messages.create({ ...request, stream: true });
    let seen = 0;
    await expect((async () => { for await (const _event of stream) seen += 1; })()).rejects.toThrow();
    expect(seen).toBe(2); // message_start, content_block_start; the SDK does not surface ping
    const recorded = fake.requests.at(-1);
    if (!recorded) throw new Error('no request recorded');
    await fake.waitForClose(recorded);
    expect(recorded.aborted).toBe(true);
  });
});
