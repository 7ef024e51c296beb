// Media calls priced per unit, end to end: the official OpenAI SDK through a real `gw serve`
// child against a local HTTP server speaking OpenAI's images and audio wire format. Each call's
// units and cost land in its audit record (hand-worked numbers below), on the buffered answer as
// x-gw-cost-usd and in gw_cost_usd_total; a transcript with no duration is unknown, not 0; the
// costs count against a hard budget, multipart calls (model read from the form) included, and a
// spent budget refuses those too; and
// `gw usage` adds the units and the costs up.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, type AuditLine } from '../helpers.js';
import { auditRecord } from '../forwarding/support.js';

const UPSTREAM_KEY = 'sk-proj-fake-openai-media-0001';

/** What the fake saw, by path: the form fields or JSON body of each call. */
const seen: Array<{ path: string; fields: Record<string, string> }> = [];

/** OpenAI's answers: https://platform.openai.com/docs/api-reference/images/object, /audio/json-object, /audio/verbose-json-object. */
function answer(path: string, fields: Record<string, string>): { type: string; body: string | Buffer } {
  const images = (count: number) => JSON.stringify({ created: 1, data: Array.from({ length: count }, (_, index) => ({ url: `https://img.example/${index}.png` })) });
  switch (path) {
    case '/v1/images/generations': return { type: 'application/json', body: images(Number(fields.n ?? 1)) };
    case '/v1/images/edits': return { type: 'application/json', body: images(Number(fields.n ?? 1)) };
    case '/v1/audio/speech': return { type: 'audio/mpeg', body: Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2048, 1)]) };
    case '/v1/audio/translations': return { type: 'application/json', body: JSON.stringify({ text: 'hello', usage: { type: 'duration', seconds: 30 } }) };
    case '/v1/audio/transcriptions':
      if (fields.response_format === 'text') return { type: 'text/plain; charset=utf-8', body: 'hello\n' };
      if (fields.response_format === 'verbose_json') return { type: 'application/json', body: JSON.stringify({ task: 'transcribe', language: 'english', duration: 90.4, text: 'hello', segments: [] }) };
      return { type: 'application/json', body: JSON.stringify({ text: 'hello', usage: { type: 'duration', seconds: 61 } }) };
    default: return { type: 'application/json', body: JSON.stringify({ error: { message: `no ${path}` } }) };
  }
}

async function fieldsOf(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('latin1');
  if (String(request.headers['content-type']).includes('json')) return JSON.parse(text) as Record<string, string>;
  const fields: Record<string, string> = {};
  for (const match of text.matchAll(/name="(\w+)"\r\n\r\n([^\r]*)\r\n/g)) fields[match[1]!] = match[2]!;
  return fields;
}

let fake: Server;
let gw: GatewayProcess;
let client: OpenAI;

// Hard budget: 0.25 USD a day. The JSON calls held and settled before the last one come to 0.120165;
// the multipart ones, charged once priced, 0.0982: only with those is a last 0.12 hold refused.
const BUDGET_USD = 0.25;

beforeAll(async () => {
  fake = createServer((request, response) => {
    void fieldsOf(request).then((fields) => {
      const path = (request.url ?? '').split('?')[0]!;
      seen.push({ path, fields });
      const { type, body } = answer(path, fields);
      response.writeHead(request.headers.authorization === `Bearer ${UPSTREAM_KEY}` ? 200 : 401, { 'content-type': type });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const home = await makeHome('gw-media-');
  for (const args of [
    ['prices', 'set', 'openai/dall-e-3', '--per-image', '0.04', '--per-image', '1024x1792/hd=0.12'],
    ['prices', 'set', 'openai/dall-e-2', '--per-image', '0.02'],
    ['prices', 'set', 'openai/tts-1', '--per-million-characters', '15'],
    ['budgets', 'set', 'team:local', '--amount', String(BUDGET_USD), '--period', 'day'],
  ]) {
    const result = await runGw(args, { home });
    expect(result.code, result.stderr).toBe(0);
  }
  const listed = await runGw(['prices', 'list'], { home });
  expect(listed.stdout).toContain('per image 1024x1792/hd 0.12');
  expect(listed.stdout).toContain('per million characters 15');
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  gw = await startGatewayProcess({ home, env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: url, GW_LOG_LEVEL: 'warn' } });
  client = new OpenAI({ apiKey: gw.bootstrapKey!, baseURL: `${gw.url}/v1`, maxRetries: 0 });
}, 30_000);

afterAll(async () => {
  await gw?.stop('SIGTERM');
  await new Promise((resolve) => fake?.close(resolve));
});

const recordOf = async (response: Response) => auditRecord(gw.home, response.headers.get('x-request-id')!);
const audio = () => toFile(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4096, 2)]), 'hello.mp3', { type: 'audio/mpeg' });

describe('media calls priced per unit', () => {
  it('dall-e-3 at 1024x1792 hd: one image at the override\'s 0.12, in the record, the header and the metrics', async () => {
    const { response } = await client.images.generate({ model: 'openai/dall-e-3', prompt: 'a cat', size: '1024x1792', quality: 'hd', n: 1 }).withResponse();
    const record = await recordOf(response);
    expect(record.tokens).toEqual({ images: 1 });
    expect(record.data).toMatchObject({ image: { size: '1024x1792', quality: 'hd' } });
    expect(record.cost).toEqual({ source: 'usage', nano_usd: 120_000_000, price: 'override', priced_as: 'dall-e-3' });
    expect(response.headers.get('x-gw-cost-usd')).toBe('0.12');
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/gw_cost_usd_total\{team="local",provider="openai",model="dall-e-3"\} 0\.12\b/);
  });

  it('an image edit (multipart): its model read from the form, two images at 0.02', async () => {
    const { response } = await client.images.edit({ model: 'dall-e-2', image: await toFile(Buffer.alloc(2048, 1), 'cat.png', { type: 'image/png' }), prompt: 'add a hat', n: 2 }).withResponse();
    const record = await recordOf(response);
    expect(seen.at(-1)).toMatchObject({ path: '/v1/images/edits', fields: { model: 'dall-e-2', n: '2' } });
    expect(record.model).toBe('dall-e-2');
    expect(record.tokens).toEqual({ images: 2 });
    expect(record.cost).toEqual({ source: 'usage', nano_usd: 40_000_000, price: 'override', priced_as: 'dall-e-2' });
    expect(response.headers.get('x-gw-cost-usd')).toBe('0.04');
  });

  it('whisper-1 from the dataset (0.006 USD a minute): 61 s from usage, 91 s from verbose_json\'s 90.4', async () => {
    const json = await client.audio.transcriptions.create({ model: 'whisper-1', file: await audio() }).withResponse();
    const jsonRecord = await recordOf(json.response);
    expect(jsonRecord.tokens).toEqual({ audio_seconds: 61 });
    expect(jsonRecord.cost).toEqual({ source: 'usage', nano_usd: 6_100_000, price: 'dataset', priced_as: 'whisper-1' });
    expect(json.response.headers.get('x-gw-cost-usd')).toBe('0.0061');
    const verbose = await client.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: 'verbose_json' }).withResponse();
    const verboseRecord = await recordOf(verbose.response);
    expect(verboseRecord.tokens).toEqual({ audio_seconds: 91 });
    expect(verboseRecord.cost).toEqual({ source: 'usage', nano_usd: 9_100_000, price: 'dataset', priced_as: 'whisper-1' });
  });

  it('a translation: 30 s at 0.006 a minute', async () => {
    const { response } = await client.audio.translations.create({ model: 'whisper-1', file: await audio() }).withResponse();
    const record = await recordOf(response);
    expect(record.operation).toBe('audio.translations');
    expect(record.cost).toEqual({ source: 'usage', nano_usd: 3_000_000, price: 'dataset', priced_as: 'whisper-1' });
  });

  it('a text transcript has no duration: units and cost unknown, never 0', async () => {
    const { response } = await client.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: 'text' }).withResponse();
    const record = await recordOf(response);
    expect(record.tokens).toBeUndefined();
    expect(record.cost).toEqual({ price: 'unknown' });
    expect(record.warnings).toContain('usage_unknown: audio_seconds');
    // A text answer is piped through (not held), so it leaves before its cost: no header.
    expect(response.headers.get('x-gw-cost-usd')).toBeNull();
  });

  it('tts-1: 11 characters at 15 USD per million = 0.000165 (a download: no header, the record has it)', async () => {
    const response = await client.audio.speech.create({ model: 'openai/tts-1', voice: 'alloy', input: 'hello world' });
    await response.arrayBuffer();
    const record = await recordOf(response);
    expect(record.tokens).toEqual({ characters: 11 });
    expect(record.cost).toEqual({ source: 'usage', nano_usd: 165_000, price: 'override', priced_as: 'tts-1' });
  });

  it('the hard budget counts every priced call, multipart ones included: the next 0.12 hold no longer fits', async () => {
    // Spent: 0.12 + 0.04 + 0.0061 + 0.0091 + 0.003 + 0.000165 = 0.178365; held next: 0.12 > 0.25 − 0.178365.
    // Without the multipart calls' 0.0582 it would fit (0.120165 + 0.12 ≤ 0.25).
    const refused = await client.images.generate({ model: 'openai/dall-e-3', prompt: 'a dog', size: '1024x1024', n: 1 }).catch((error: unknown) => error);
    expect((refused as { status?: number }).status).toBe(402);
    expect((refused as Error).message).toContain('team:local ($0.25 a day, hard, UTC)');
  });

  it('a multipart call cannot be estimated first, but once the budget is spent it is refused too', async () => {
    // Four edits at 0.02 fit (the call holds one nano-USD; its cost is known only from the form) and overshoot: 0.258365.
    const { response } = await client.images.edit({ model: 'dall-e-2', image: await toFile(Buffer.alloc(2048, 1), 'cat.png', { type: 'image/png' }), prompt: 'a scarf', n: 4 }).withResponse();
    expect((await recordOf(response)).cost).toEqual({ source: 'usage', nano_usd: 80_000_000, price: 'override', priced_as: 'dall-e-2' });
    const calls = seen.length;
    const refused = await client.audio.translations.create({ model: 'whisper-1', file: await audio() }).catch((error: unknown) => error);
    expect((refused as { status?: number }).status).toBe(402);
    expect((refused as Error).message).toContain('Budget team:local ($0.25 a day, hard, UTC) is spent. It resets at');
    expect(seen.length).toBe(calls);
  });
});

describe('gw usage', () => {
  it('adds up the records\' units and costs', async () => {
    await gw.stop('SIGTERM');
    expect((await runGw(['audit', 'verify'], { home: gw.home })).code).toBe(0);
    const records = (await readAudit(gw.home)).filter((line) => line.kind === 'request') as Array<AuditLine & { cost?: { nano_usd?: number } }>;
    const total = records.reduce((sum, record) => sum + (record.cost?.nano_usd ?? 0), 0);
    expect(total).toBe(258_365_000);
    const result = await runGw(['usage', '--by', 'model', '--since', '1d', '--json'], { home: gw.home });
    expect(result.code, result.stderr).toBe(0);
    const rows = (JSON.parse(result.stdout) as { rows: Array<{ group: string; images: number; audio_seconds: number; characters: number; cost_nano_usd: number; unpriced_calls: number }> }).rows;
    expect(rows.reduce((sum, row) => sum + row.cost_nano_usd, 0)).toBe(total);
    // Grouped by the model as the client named it: openai/… in a JSON body, bare in a form.
    const by = (model: string) => rows.find((row) => row.group === model);
    expect(by('openai/dall-e-3')).toMatchObject({ images: 1, cost_nano_usd: 120_000_000 });
    expect(by('dall-e-2')).toMatchObject({ images: 6, cost_nano_usd: 120_000_000 });
    expect(by('whisper-1')).toMatchObject({ audio_seconds: 61 + 91 + 30, cost_nano_usd: 18_200_000, unpriced_calls: 1 });
    expect(by('openai/tts-1')).toMatchObject({ characters: 11, cost_nano_usd: 165_000 });
  });
});
