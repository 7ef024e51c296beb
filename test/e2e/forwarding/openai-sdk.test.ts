// The official `openai` SDK through `gw serve` to a fake OpenAI (and a fake Azure
// OpenAI): same-format forwarding with only the model patched, streams relayed as
// they arrive, usage read on the side (and hidden when gw had to ask for it),
// base64 embeddings passed through, the /openai prefixes, the Azure client's
// deployment route, the merged model list and the 404 for an unknown model.
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedText } from '../../support/fake-providers/fake-request-text.js';
import {
  auditRecord, expectUpstreamCredentials, last, post, readTimed, recordingFetch, sseData, startRig, stopAndVerify, withModel, type Rig,
} from './support.js';

let rig: Rig;
let client: OpenAI;
let sent: ReturnType<typeof recordingFetch>;

beforeAll(async () => {
  rig = await startRig({ azure: true, eventDelayMs: 50 });
  sent = recordingFetch();
  client = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0, fetch: sent.fetch });
}, 30_000);

afterAll(async () => { await rig?.close(); });

const PROMPT = 'one two three four five six';

describe('chat completions', () => {
  it('non-streaming: the answer comes back, the provider got the client bytes with only the model patched', async () => {
    const { data, response } = await client.chat.completions.create({
      model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hello there' }], temperature: 0.25,
    }).withResponse();
    expect(response.status).toBe(200);
    expect(data.choices[0]?.message.content).toBe('echo: hello there');
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(data.model).toBe('gpt-4o');

    const upstream = last(rig.openai);
    expect(upstream.method).toBe('POST');
    expect(upstream.path).toBe('/v1/chat/completions');
    expect(upstream.body).toBe(withModel(sent.bodies.at(-1)!, 'openai/gpt-4o', 'gpt-4o'));
    expectUpstreamCredentials(upstream, 'openai', rig.openai, rig.key);
    // The hop count goes only to another gw (header-rules.ts).
    expect(upstream.headers['x-gw-hops']).toBeUndefined();
    expect(upstream.headers['user-agent']).toMatch(/^OpenAI\/JS \S+ gw\/\S+$/);
    // The SDK's x-stainless-* headers cross unchanged, as Claude Code's gateway protocol asks.
    expect(upstream.headers['x-stainless-lang']).toBe('js');

    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit).toMatchObject({
      kind: 'request', model: 'openai/gpt-4o', provider: 'openai', status: 200, family: 'openai', operation: 'chat.completions',
      tokens: { input: data.usage!.prompt_tokens, output: data.usage!.completion_tokens },
    });
  });

  it('a bare gpt- name routes to OpenAI by prefix and is forwarded byte for byte', async () => {
    const result = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'bare' }] });
    expect(result.choices[0]?.message.content).toBe('echo: bare');
    expect(last(rig.openai).body).toBe(sent.bodies.at(-1));
  });

  it('streaming arrives incrementally; the usage chunk gw asked for is hidden from a client that did not ask', async () => {
    const { data: stream, response } = await client.chat.completions.create({
      model: 'openai/gpt-4o', messages: [{ role: 'user', content: PROMPT }], stream: true,
    }).withResponse();
    const chunks: Array<{ at: number; chunk: OpenAI.Chat.Completions.ChatCompletionChunk }> = [];
    for await (const chunk of stream) chunks.push({ at: Date.now(), chunk });

    const text = chunks.map(({ chunk }) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(`echo: ${PROMPT}`);
    expect(chunks.at(-1)?.chunk.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.some(({ chunk }) => chunk.choices.length === 0)).toBe(false);
    expect(chunks.every(({ chunk }) => chunk.usage == null)).toBe(true);

    const upstream = last(rig.openai);
    const closedAt = await rig.openai.waitForClose(upstream);
    // Eight or more frames 50 ms apart: the first reached the client long before the fake wrote its last.
    expect(chunks.length).toBeGreaterThanOrEqual(8);
    expect(chunks[0]!.at).toBeLessThan(closedAt - 200);
    expect(chunks.at(-1)!.at - chunks[0]!.at).toBeGreaterThanOrEqual(200);

    // gw asked for usage upstream (so the audit has tokens); nothing else changed.
    const clientJson = JSON.parse(sent.bodies.at(-1)!) as Record<string, unknown>;
    expect(clientJson.stream_options).toBeUndefined();
    expect(upstream.json).toEqual({ ...clientJson, model: 'gpt-4o', stream_options: { include_usage: true } });
    expectUpstreamCredentials(upstream, 'openai', rig.openai, rig.key);

    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit).toMatchObject({ model: 'openai/gpt-4o', provider: 'openai', status: 200 });
    expect(audit.tokens).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });
    expect((audit.tokens as { output: number }).output).toBeGreaterThan(0);
  });

  it('on the wire: a stream without include_usage ends with [DONE] and carries no usage chunk', async () => {
    const response = await post(rig, '/v1/chat/completions', { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'wire' }], stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const { text } = await readTimed(response);
    const events = sseData(text);
    expect(events.at(-1)).toBe('[DONE]');
    expect(events.filter((event) => typeof event === 'object' && (event as { usage?: unknown }).usage)).toEqual([]);
  });

  it('streaming with include_usage: the client sees the usage chunk and the body goes up unchanged but for the model', async () => {
    const stream = await client.chat.completions.create({
      model: 'openai/gpt-4o', messages: [{ role: 'user', content: PROMPT }], stream: true, stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage?.completion_tokens).toBeGreaterThan(0);
    expect(last(rig.openai).body).toBe(withModel(sent.bodies.at(-1)!, 'openai/gpt-4o', 'gpt-4o'));
  });
});

describe('completions and embeddings', () => {
  it('legacy completions, non-streaming and streaming', async () => {
    const { data, response } = await client.completions.create({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'say hi' }).withResponse();
    expect(data.choices[0]?.text).toBe('echo: say hi');
    expect(last(rig.openai).path).toBe('/v1/completions');
    expect(last(rig.openai).body).toBe(withModel(sent.bodies.at(-1)!, 'openai/gpt-3.5-turbo-instruct', 'gpt-3.5-turbo-instruct'));
    expect(await auditRecord(rig.gw.home, response.headers.get('x-request-id')!)).toMatchObject({
      operation: 'completions', provider: 'openai', tokens: { input: data.usage!.prompt_tokens, output: data.usage!.completion_tokens },
    });

    const stream = await client.completions.create({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'a b c d', stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('echo: a b c d');
    expect(last(rig.openai).body).toBe(withModel(sent.bodies.at(-1)!, 'openai/gpt-3.5-turbo-instruct', 'gpt-3.5-turbo-instruct'));
  });

  it('embeddings: the SDK asks for base64 by default, gw passes it through, and it decodes to the provider floats', async () => {
    const { data, response } = await client.embeddings.create({ model: 'openai/text-embedding-3-small', input: ['alpha', 'beta'] }).withResponse();
    expect(data.data.map((item) => item.embedding)).toEqual([embedText('alpha'), embedText('beta')]);
    const upstream = last(rig.openai);
    expect(upstream.path).toBe('/v1/embeddings');
    expect((upstream.json as { encoding_format?: string }).encoding_format).toBe('base64');
    expect(upstream.body).toBe(withModel(sent.bodies.at(-1)!, 'openai/text-embedding-3-small', 'text-embedding-3-small'));
    expectUpstreamCredentials(upstream, 'openai', rig.openai, rig.key);
    expect(await auditRecord(rig.gw.home, response.headers.get('x-request-id')!)).toMatchObject({ operation: 'embeddings', provider: 'openai', status: 200 });

    // On the wire the client gets the provider's base64 string, not floats.
    const raw = await post(rig, '/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'alpha', encoding_format: 'base64' });
    const body = await raw.json() as { data: Array<{ embedding: unknown }> };
    expect(typeof body.data[0]?.embedding).toBe('string');
    const bytes = new Uint8Array(Buffer.from(body.data[0]!.embedding as string, 'base64'));
    expect([...new Float32Array(bytes.buffer)]).toEqual(embedText('alpha'));
  });
});

describe('the /openai drop-in prefix', () => {
  it.each(['/openai/v1', '/openai'])('%s/chat/completions reaches the provider', async (prefix) => {
    const prefixed = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}${prefix}`, maxRetries: 0 });
    const result = await prefixed.chat.completions.create({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: `via ${prefix}` }] });
    expect(result.choices[0]?.message.content).toBe(`echo: via ${prefix}`);
    expect(last(rig.openai).path).toBe('/v1/chat/completions');
    expect(last(rig.openai).json).toMatchObject({ model: 'gpt-4o' });
  });
});

describe('the AzureOpenAI client (/openai/deployments/{name}/chat/completions?api-version=…)', () => {
  const azureClient = (deployment: string) => new AzureOpenAI({ endpoint: rig.gw.url, apiKey: rig.key, deployment, apiVersion: '2024-10-21', maxRetries: 0 });

  // openai 7 escapes the deployment into the path itself (azure%2Fgpt-4o on the wire); 6.x inserted it as given.
  it('azure/<deployment> (the slash escaped in the path) reaches the Azure provider with its api-key and api-version', async () => {
    const result = await azureClient('azure/gpt-4o').chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'to azure' }] });
    expect(result.choices[0]?.message.content).toBe('echo: to azure');
    const upstream = last(rig.azure!);
    expect(upstream.path).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(upstream.query['api-version']).toBe('2024-10-21');
    expectUpstreamCredentials(upstream, 'azure', rig.azure!, rig.key);
  });

  it('azure/<deployment> streams too', async () => {
    const stream = await azureClient('azure/gpt-4o').chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'a b c' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('echo: a b c');
    expect(last(rig.azure!).path).toBe('/openai/deployments/gpt-4o/chat/completions');
  });

  it('a bare deployment name goes to the Azure provider even with OpenAI configured too (the AzureOpenAI client means Azure)', async () => {
    const before = rig.openai.requests.length;
    const result = await azureClient('gpt-4o').chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'bare deployment' }] });
    expect(result.choices[0]?.message.content).toBe('echo: bare deployment');
    expect(last(rig.azure!).path).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(last(rig.azure!).query['api-version']).toBeTruthy();
    expect(rig.openai.requests.length).toBe(before);
  });
});

describe('GET /v1/models', () => {
  it('merges every provider catalog in the OpenAI list shape, ids prefixed with the provider', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      expect(model.object).toBe('model');
      ids.push(model.id);
    }
    expect(ids).toEqual(expect.arrayContaining([
      'openai/gpt-4o-mini', 'openai/text-embedding-3-small',
      'anthropic/claude-sonnet-4-20250514', 'gemini/gemini-2.5-flash', 'gemini/gemini-embedding-001',
    ]));
    expect(ids.some((id) => id.startsWith('mock/'))).toBe(true);
    for (const [name, fake] of [['openai', rig.openai], ['anthropic', rig.anthropic], ['gemini', rig.gemini]] as const) {
      const list = fake.requests.filter((request) => request.method === 'GET' && /\/models$/.test(request.path));
      expect(list.length, `${name} catalog fetched`).toBeGreaterThan(0);
      expectUpstreamCredentials(list.at(-1)!, name, fake, rig.key);
    }
  });
});

describe('unknown models', () => {
  it.each(['no-such-model', 'nosuchprovider/gpt-4o'])('%s → 404 in the OpenAI error shape', async (model) => {
    const before = rig.openai.requests.length;
    const response = await post(rig, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(404);
    const body = await response.json() as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found', param: null });
    expect(body.error.message).toEqual(expect.stringContaining(model));
    await expect(client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect(rig.openai.requests.length).toBe(before);
  });
});

describe('credentials', () => {
  it('every upstream request carried the provider key and never the gw key', () => {
    for (const [name, fake] of [['openai', rig.openai], ['anthropic', rig.anthropic], ['gemini', rig.gemini], ['azure', rig.azure!]] as const) {
      for (const request of fake.requests) expectUpstreamCredentials(request, name, fake, rig.key);
    }
  });
});

describe('audit trail', () => {
  it('gw stops cleanly and gw audit verify exits 0', async () => { await stopAndVerify(rig); }, 20_000);
});
