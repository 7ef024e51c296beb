import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI, { AzureOpenAI } from 'openai';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/start-fake-provider.js';

let fake: FakeProvider;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeProvider('openai', { apiKey: 'sk-fake' });
  client = new OpenAI({ apiKey: 'sk-fake', baseURL: `${fake.url}/v1`, maxRetries: 0 });
});
afterAll(async () => fake.close());

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello fake world' }];

describe('fake OpenAI with the openai SDK', () => {
  it('answers chat JSON echoing the text and model, and records the request', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.choices[0]?.message.content).toBe('echo: hello fake world');
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    const recorded = fake.requests.at(-1);
    expect(recorded).toMatchObject({ method: 'POST', path: '/v1/chat/completions', aborted: false });
    expect(recorded?.headers.authorization).toBe('Bearer sk-fake');
    expect(recorded?.json).toMatchObject({ model: 'gpt-4o-mini' });
  });

  it('streams chat events spread over time, with a usage chunk', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-4.1', messages, stream: true, stream_options: { include_usage: true } });
    const arrivals: number[] = [];
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      arrivals.push(Date.now());
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('echo: hello fake world');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(100);
  });

  it('streams a tool call when tools are offered', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    const runner = client.chat.completions.stream({ model: 'gpt-4o-mini', messages, tools });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : undefined).toEqual({ text: 'hello fake world' });
  });

  it('answers completions, embeddings (base64 decoded by the SDK) and models', async () => {
    const completion = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'say this' });
    expect(completion.choices[0]?.text).toBe('echo: say this');
    const embeddings = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(fake.requests.at(-1)?.json).toMatchObject({ encoding_format: 'base64' });
    expect(embeddings.data).toHaveLength(2);
    expect(embeddings.data[0]?.embedding).toHaveLength(8);
    const floats = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float' });
    expect(floats.data[0]?.embedding).toEqual(embeddings.data[0]?.embedding);
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain('gpt-4o-mini');
  });

  it('serves Azure deployments with the api-key header', async () => {
    const azure = new AzureOpenAI({ endpoint: fake.url, apiKey: 'sk-fake', apiVersion: '2024-10-21', deployment: 'my-deploy', maxRetries: 0 });
    const completion = await azure.chat.completions.create({ model: 'my-deploy', messages });
    expect(completion.choices[0]?.message.content).toBe('echo: hello fake world');
    const recorded = fake.requests.at(-1);
    expect(recorded).toMatchObject({ path: '/openai/deployments/my-deploy/chat/completions', query: { 'api-version': '2024-10-21' } });
    expect(recorded?.headers['api-key']).toBe('sk-fake');
  });

  it('refuses a wrong key with the real 401 shape', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${fake.url}/v1`, maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
  });

  it('fails with a 429 and retry-after when told to, for the next request only', async () => {
    fake.setBehaviour({ status: 429 }, { times: 1 });
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('1');
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages })).resolves.toBeDefined();
  });

  it('takes faults from the x-fake-behaviour header', async () => {
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-fake-behaviour': '{"status":503}' } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 503, type: 'server_error' });
  });

  it('records when a client aborts a stream that hangs', async () => {
    fake.setBehaviour({ hangAfterEvents: 2 }, { times: 1 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }, { signal: controller.signal });
    let seen = 0;
    const reading = (async () => { for await (const _chunk of stream) { seen += 1; if (seen === 2) controller.abort(); } })();
    await reading.catch(() => undefined); // the SDK ends an aborted stream quietly
    expect(seen).toBe(2);
    const recorded = fake.requests.at(-1);
    if (!recorded) throw new Error('no request recorded');
    const closedAt = await fake.waitForClose(recorded);
    expect(recorded.aborted).toBe(true);
    expect(closedAt).toBeGreaterThanOrEqual(recorded.receivedAt);
  });

  it('resets the socket mid-stream', async () => {
    fake.setBehaviour({ resetAfterEvents: 2 }, { times: 1 });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    let seen = 0;
    await expect((async () => { for await (const _chunk of stream) seen += 1; })()).rejects.toThrow();
    expect(seen).toBe(2);
  });

  it('sends malformed SSE that the SDK cannot parse', async () => {
    fake.setBehaviour({ malformedSse: true }, { times: 1 });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    await expect((async () => { for await (const _chunk of stream) { /* drain */ } })()).rejects.toThrow();
  });

  it('hangs before headers until the client gives up', async () => {
    fake.setBehaviour({ hangBeforeHeaders: true }, { times: 1 });
    const started = Date.now();
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages }, { timeout: 150 })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const recorded = fake.requests.at(-1);
    if (!recorded) throw new Error('no request recorded');
    await fake.waitForClose(recorded);
    expect(recorded.aborted).toBe(true);
  });
});
