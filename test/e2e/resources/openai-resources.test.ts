// The official openai SDK's own resource methods through a `gw serve` child, against
// local providers that implement the resources for real. Two OpenAI-format providers
// (openai, and groq standing in for a second one) show that each id's follow-ups
// reach the provider that created it.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit } from '../helpers.js';
import { startFakeResourceProvider, type FakeResourceProvider } from './fake-resource-provider.js';
import { ANTHROPIC_BATCH_RESULTS, startAnthropicBatchFake, startCohereFake, startJinaFake, startMistralFake, startVoyageFake, type JsonFake } from './small-fakes.js';

const KEYS = { openai: 'sk-fake-openai-A', groq: 'gsk-fake-groq-B', anthropic: 'sk-ant-fake-C', cohere: 'co-fake', jina: 'jina-fake', voyage: 'pa-fake', mistral: 'mistral-fake' };

let gw: GatewayProcess;
let openaiFake: FakeResourceProvider;
let groqFake: FakeResourceProvider;
let small: Record<'cohere' | 'jina' | 'voyage' | 'mistral' | 'anthropic', JsonFake>;
let client: OpenAI;

beforeAll(async () => {
  [openaiFake, groqFake] = await Promise.all([startFakeResourceProvider(KEYS.openai), startFakeResourceProvider(KEYS.groq)]);
  const [cohere, jina, voyage, mistral, anthropic] = await Promise.all([startCohereFake(), startJinaFake(), startVoyageFake(), startMistralFake(), startAnthropicBatchFake()]);
  small = { cohere, jina, voyage, mistral, anthropic };
  gw = await startGatewayProcess({
    env: {
      OPENAI_API_KEY: KEYS.openai, OPENAI_BASE_URL: `${openaiFake.url}/v1`, GROQ_API_KEY: KEYS.groq, GROQ_BASE_URL: `${groqFake.url}/v1`,
      ANTHROPIC_API_KEY: KEYS.anthropic, ANTHROPIC_BASE_URL: anthropic.url, COHERE_API_KEY: KEYS.cohere, COHERE_BASE_URL: cohere.url,
      JINA_API_KEY: KEYS.jina, JINA_BASE_URL: `${jina.url}/v1`, VOYAGE_API_KEY: KEYS.voyage, VOYAGE_BASE_URL: `${voyage.url}/v1`,
      MISTRAL_API_KEY: KEYS.mistral, MISTRAL_BASE_URL: `${mistral.url}/v1`, GW_LOG_LEVEL: 'warn',
    },
  });
  client = new OpenAI({ apiKey: gw.bootstrapKey!, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await gw?.stop();
  await Promise.all([openaiFake, groqFake, ...Object.values(small ?? {})].filter(Boolean).map((fake) => fake.close()));
});

const last = (fake: FakeResourceProvider) => fake.seen[fake.seen.length - 1]!;

/** The trail's request records that `keep` selects, once there are `count` of them (a record lands just after its answer). */
async function recordsOnceThere(keep: (record: Awaited<ReturnType<typeof readAudit>>[number]) => boolean, count: number): Promise<Awaited<ReturnType<typeof readAudit>>> {
  let found: Awaited<ReturnType<typeof readAudit>> = [];
  for (let tries = 0; tries < 50; tries += 1) {
    found = (await readAudit(gw.home)).filter((record) => record.kind === 'request' && keep(record));
    if (found.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return found;
}

describe('files and batches', () => {
  it('uploads a file, lists, retrieves, downloads and deletes it, with the provider key swapped in', async () => {
    const content = Buffer.from('{"custom_id":"1","method":"POST","url":"/v1/chat/completions","body":{}}\n'.repeat(50));
    const file = await client.files.create({ file: await toFile(content, 'batch.jsonl'), purpose: 'batch' });
    expect(file).toMatchObject({ object: 'file', bytes: content.length, filename: 'batch.jsonl', purpose: 'batch' });
    const stored = openaiFake.files.get(file.id)!;
    expect(stored.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(last(openaiFake).headers.authorization).toBe(`Bearer ${KEYS.openai}`);
    expect(JSON.stringify(last(openaiFake).headers)).not.toContain(gw.bootstrapKey!);

    const listed = await client.files.list();
    expect(listed.data.map((entry) => entry.id)).toContain(file.id);
    expect((await client.files.retrieve(file.id)).bytes).toBe(content.length);
    const download = await client.files.content(file.id);
    expect(download.headers.get('content-length')).toBe(String(content.length));
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
    expect(await client.files.delete(file.id)).toMatchObject({ id: file.id, deleted: true });
  });

  it('sends follow-ups of an id to the provider that created it (x-gw-provider picks the upload\'s provider)', async () => {
    const file = await client.files.create({ file: await toFile(Buffer.from('{}\n'), 'b.jsonl'), purpose: 'batch' }, { headers: { 'x-gw-provider': 'groq' } });
    expect(groqFake.files.has(file.id)).toBe(true);
    expect(last(groqFake).headers.authorization).toBe(`Bearer ${KEYS.groq}`);
    expect(last(groqFake).headers['x-gw-provider']).toBeUndefined();
    const openaiSeen = openaiFake.seen.length;
    // No header now: the id alone routes (to groq), for the file and for a batch made from it.
    expect(Buffer.from(await (await client.files.content(file.id)).arrayBuffer()).toString()).toBe('{}\n');
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(last(groqFake).body).toMatchObject({ input_file_id: file.id, endpoint: '/v1/chat/completions' });
    expect((await client.batches.retrieve(batch.id)).status).toBe('validating');
    expect((await client.batches.cancel(batch.id)).status).toBe('cancelling');
    expect(openaiFake.seen.length).toBe(openaiSeen);
  });

  it('records a finished batch\'s usage once, at the batch price, on the first retrieval that sees it finished', async () => {
    const file = await client.files.create({ file: await toFile(Buffer.from('{}\n'), 'priced.jsonl'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect((await client.batches.retrieve(batch.id).withResponse()).response.headers.get('x-gw-cost-usd')).toBeNull();
    // The provider finishes it: the batch object now names its model and what it used (OpenAI's Batch.usage).
    Object.assign(openaiFake.objects.get(batch.id)!, {
      status: 'completed', model: 'gpt-4o-mini',
      usage: { input_tokens: 1_000_000, input_tokens_details: { cached_tokens: 200_000 }, output_tokens: 100_000, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1_100_000 },
    });
    const first = await client.batches.retrieve(batch.id).withResponse();
    // By hand from OpenAI's prices for gpt-4o-mini ($0.15 input, $0.075 cached input, $0.60 output per million):
    // 800k x 0.15 + 200k x 0.075 + 100k x 0.60 = $0.195 interactive; the Batch API bills half: $0.0975.
    expect(first.response.headers.get('x-gw-cost-usd')).toBe('0.0975');
    expect((await client.batches.retrieve(batch.id).withResponse()).response.headers.get('x-gw-cost-usd')).toBeNull();
    // Three retrievals of this batch: before it finished, the one that saw it finished, once more.
    const retrievals = await recordsOnceThere((record) => record.operation === 'batches.item' && record.provider === 'openai' && record.status === 200, 3);
    const priced = retrievals.filter((record) => record.tokens !== undefined);
    expect(priced).toHaveLength(1);
    expect(priced[0]).toMatchObject({ model: 'gpt-4o-mini', provider: 'openai', tokens: { input: 1_000_000, cached_read: 200_000, output: 100_000 }, cost: { nano_usd: 97_500_000, discount: 'batch' } });
  });

  it('a stored response retrieved again is not usage again (it was recorded when it was made)', async () => {
    const made = await client.responses.create({ model: 'gpt-4o-mini', input: 'hi' });
    await client.responses.retrieve(made.id);
    const records = await recordsOnceThere((record) => String(record.operation).startsWith('responses'), 2);
    expect(records.filter((record) => record.tokens !== undefined).map((record) => record.operation)).toEqual(['responses.create']);
    expect(records.some((record) => record.operation === 'responses.retrieve')).toBe(true);
  });

  it('answers an unknown provider name in x-gw-provider with a 404 naming the configured ones', async () => {
    const error = await client.files.list({}, { headers: { 'x-gw-provider': 'nope' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(String((error as Error).message)).toContain('groq');
  });
});

describe('responses', () => {
  it('creates a response and retrieves, lists input items, cancels and deletes it', async () => {
    const created = await client.responses.create({ model: 'openai/gpt-4.1', input: 'hi' });
    expect(created.id).toMatch(/^resp_/);
    expect(last(openaiFake).body).toMatchObject({ model: 'gpt-4.1', input: 'hi' });
    expect((await client.responses.retrieve(created.id)).id).toBe(created.id);
    const items = await client.responses.inputItems.list(created.id);
    expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
    expect((await client.responses.cancel(created.id)).status).toBe('cancelled');
    await client.responses.delete(created.id);
    expect(last(openaiFake)).toMatchObject({ method: 'DELETE', path: `/v1/responses/${created.id}` });
    const counted = await client.responses.inputTokens.count({ model: 'gpt-4.1', input: 'hello' });
    expect(counted.input_tokens).toBe(11);
    const records = await readAudit(gw.home);
    expect(records.find((record) => record.operation === 'responses.create' && record.provider === 'openai')).toMatchObject({ tokens: { input: 5, output: 2, total: 7 } });
  });

  it('follows a response created on the second provider', async () => {
    const created = await client.responses.create({ model: 'groq/llama-3.3', input: 'hi' });
    expect(last(groqFake).body).toMatchObject({ model: 'llama-3.3' });
    expect((await client.responses.retrieve(created.id)).model).toBe('llama-3.3');
    expect(last(groqFake).path).toBe(`/v1/responses/${created.id}`);
  });
});

describe('images, audio, containers, videos', () => {
  it('generates and edits images (the edit is a multipart upload)', async () => {
    const generated = await client.images.generate({ model: 'gpt-image-1', prompt: 'a cat' });
    expect(Buffer.from(generated.data![0]!.b64_json!, 'base64').toString()).toBe('png');
    expect(last(openaiFake).body).toMatchObject({ model: 'gpt-image-1', prompt: 'a cat' });
    const edited = await client.images.edit({ model: 'gpt-image-1', image: await toFile(Buffer.alloc(2048, 1), 'cat.png', { type: 'image/png' }), prompt: 'add a hat' });
    expect(edited.created).toBe(2);
    expect(last(openaiFake).body).toMatchObject({ fields: { prompt: 'add a hat', model: 'gpt-image-1' }, file: { filename: 'cat.png', bytes: 2048 } });
  });

  it('streams synthesized speech back and uploads audio for transcription', async () => {
    const speech = await client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'hello' });
    expect(speech.headers.get('content-type')).toBe('audio/mpeg');
    const audio = Buffer.from(await speech.arrayBuffer());
    expect(audio.subarray(0, 3).toString()).toBe('ID3');
    expect(audio.length).toBe(3 + 4096 + 5);
    const transcript = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(audio, 'hello.mp3') });
    expect(transcript.text).toBe(`heard ${audio.length} bytes`);
  });

  it('creates, retrieves and lists files of a container, and deletes it', async () => {
    const container = await client.containers.create({ name: 'sandbox' });
    expect((await client.containers.retrieve(container.id)).name).toBe('sandbox');
    const files = await client.containers.files.list(container.id);
    expect(files.data).toEqual([]);
    await client.containers.delete(container.id);
    expect(last(openaiFake)).toMatchObject({ method: 'DELETE', path: `/v1/containers/${container.id}` });
  });

  it('creates a video, retrieves it, downloads its content and remixes it', async () => {
    const video = await client.videos.create({ model: 'sora-2', prompt: 'waves' });
    expect((await client.videos.retrieve(video.id)).prompt).toBe('waves');
    const content = await client.videos.downloadContent(video.id);
    expect(Buffer.from(await content.arrayBuffer()).toString()).toBe('MP4VIDEO');
    const remix = await client.videos.remix(video.id, { prompt: 'bigger waves' });
    expect(remix).toMatchObject({ remixed_from_video_id: video.id });
  });
});

describe('rerank, OCR and message batches', () => {
  const documents = ['alpha', 'beta', 'gamma'];
  const post = (route: string, body: unknown) => fetch(`${gw.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it.each([
    ['cohere', 'rerank-v3.5', '/v2/rerank', { top_n: 2 }],
    ['jina', 'jina-reranker-v2-base-multilingual', '/v1/rerank', { top_n: 2, return_documents: true }],
    ['voyage', 'rerank-2', '/v1/rerank', { top_k: 2, return_documents: false }],
  ] as const)('reranks with %s in its own wire format, answered in gw\'s shape', async (name, model, upstreamPath, sent) => {
    const response = await post('/v1/rerank', { model: `${name}/${model}`, query: 'q', documents, top_n: 2, return_documents: name === 'jina' });
    expect(response.status).toBe(200);
    const body = await response.json() as { results: Array<{ index: number; relevance_score: number; document?: { text: string } }> };
    expect(body.results[0]).toMatchObject({ index: 2 });
    if (name !== 'jina') expect(body.results).toHaveLength(2);
    if (name === 'jina') expect(body.results[0]!.document).toEqual({ text: 'gamma' });
    const seen = small[name].seen.at(-1)!;
    expect(seen.path).toBe(upstreamPath);
    expect(seen.body).toMatchObject({ model, query: 'q', documents, ...sent });
    expect(seen.headers.authorization).toBe(`Bearer ${KEYS[name]}`);
  });

  it('refuses rerank on a provider without it, naming the providers that have it', async () => {
    const response = await post('/v1/rerank', { model: 'openai/gpt-4.1', query: 'q', documents });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain('does not offer rerank');
    expect(text).toContain('cohere, jina, voyage');
  });

  it('runs OCR on Mistral with the same key that serves its chat', async () => {
    const response = await post('/v1/ocr', { model: 'mistral/mistral-ocr-latest', document: { type: 'document_url', document_url: 'https://example.com/a.pdf' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ pages: [{ markdown: '# Invoice 42' }] });
    expect(small.mistral.seen.at(-1)!.body).toMatchObject({ model: 'mistral-ocr-latest', document: { type: 'document_url' } });
    const chat = await client.chat.completions.create({ model: 'mistral/mistral-small-latest', messages: [{ role: 'user', content: 'salut' }] });
    expect(chat.choices[0]!.message.content).toBe('bonjour');
    expect(small.mistral.seen.at(-1)!.headers.authorization).toBe(`Bearer ${KEYS.mistral}`);
  });

  it('creates, retrieves and cancels an Anthropic message batch', async () => {
    const headers = { 'x-api-key': gw.bootstrapKey!, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
    const created = await fetch(`${gw.url}/v1/messages/batches`, { method: 'POST', headers, body: JSON.stringify({ requests: [{ custom_id: 'a', params: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } }] }) });
    expect(await created.json()).toMatchObject({ id: 'msgbatch_01abc', processing_status: 'in_progress' });
    expect(small.anthropic.seen.at(-1)!.headers['x-api-key']).toBe(KEYS.anthropic);
    const { 'content-type': _type, ...bodyless } = headers;
    expect((await (await fetch(`${gw.url}/v1/messages/batches/msgbatch_01abc`, { headers: bodyless })).json())).toMatchObject({ id: 'msgbatch_01abc' });
    const cancelled = await fetch(`${gw.url}/v1/messages/batches/msgbatch_01abc/cancel`, { method: 'POST', headers: bodyless });
    expect(await cancelled.json()).toMatchObject({ processing_status: 'canceling' });
  });

  it('records an Anthropic batch\'s usage from its results as they pass, once, at the batch price', async () => {
    const headers = { 'x-api-key': gw.bootstrapKey!, 'anthropic-version': '2023-06-01' };
    for (let download = 0; download < 2; download += 1) {
      const results = await fetch(`${gw.url}/v1/messages/batches/msgbatch_01abc/results`, { headers });
      expect(results.status).toBe(200);
      expect(await results.text()).toBe(ANTHROPIC_BATCH_RESULTS);
    }
    // Each record is written once its download has passed whole.
    let downloads: Array<Record<string, unknown>> = [];
    for (let tries = 0; tries < 50 && downloads.length < 2; tries += 1) {
      downloads = (await readAudit(gw.home)).filter((record) => record.operation === 'messages.batches.results');
      if (downloads.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(downloads).toHaveLength(2);
    const priced = downloads.filter((record) => record.tokens !== undefined);
    expect(priced).toHaveLength(1);
    // By hand from Anthropic's prices for claude-sonnet-4-5 ($3 input, $0.30 cache read, $15 output per million),
    // two succeeded results (the errored one used nothing): 4,000 x 3 + 2,000 x 0.30 + 2,000 x 15 = $0.0426
    // interactive; the Message Batches API bills half: $0.0213.
    expect(priced[0]).toMatchObject({ model: 'claude-sonnet-4-5', provider: 'anthropic', tokens: { output: 2000, cached_read: 2000 }, cost: { nano_usd: 21_300_000, discount: 'batch' } });
  });
});

describe('the /openai drop-in prefix and the id memory on disk', () => {
  it('serves the same routes under /openai and keeps ids in $GW_HOME/resource-ids.jsonl', async () => {
    const dropIn = new OpenAI({ apiKey: gw.bootstrapKey!, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const file = await dropIn.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'assistants' }, { headers: { 'x-gw-provider': 'groq' } });
    expect((await dropIn.files.retrieve(file.id)).id).toBe(file.id);
    const lines = (await readFile(path.join(gw.home, 'resource-ids.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { id: string; provider: string });
    expect(lines).toContainEqual({ id: file.id, provider: 'groq' });
  });
});
