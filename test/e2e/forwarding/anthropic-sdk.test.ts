// The official `@anthropic-ai/sdk` (and a Claude Code–shaped raw request) through
// `gw serve` to a fake Anthropic: /v1/messages (also ?beta=true), count_tokens,
// streams relayed event by event, anthropic-version / anthropic-beta forwarded,
// the Anthropic-shaped model list, the 404 for an unknown model, and HEAD /.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRecord, expectUpstreamCredentials, last, post, readTimed, recordingFetch, sseData, startRig, stopAndVerify, withModel, type Rig,
} from './support.js';

let rig: Rig;
let client: Anthropic;
let sent: ReturnType<typeof recordingFetch>;

beforeAll(async () => {
  rig = await startRig({ eventDelayMs: 50 });
  sent = recordingFetch();
  client = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url, maxRetries: 0, fetch: sent.fetch });
}, 30_000);

afterAll(async () => { await rig?.close(); });

const MODEL = 'anthropic/claude-sonnet-4-5';
const PROMPT = 'one two three four five six';

describe('messages', () => {
  it('non-streaming: answer back, body patched only in the model, anthropic-version forwarded, x-api-key swapped', async () => {
    const { data, response } = await client.messages.create({
      model: MODEL, max_tokens: 64, system: 'be brief', messages: [{ role: 'user', content: 'hello there' }],
    }).withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'echo: hello there' }]);
    expect(data.model).toBe('claude-sonnet-4-5');
    expect(data.stop_reason).toBe('end_turn');

    const upstream = last(rig.anthropic);
    expect(upstream.path).toBe('/v1/messages');
    expect(upstream.query).toEqual({});
    expect(upstream.body).toBe(withModel(sent.bodies.at(-1)!, MODEL, 'claude-sonnet-4-5'));
    // The SDK authenticates to gw with Bearer; the provider gets its own x-api-key only.
    expect(sent.headers.at(-1)!.get('authorization')).toBe(`Bearer ${rig.key}`);
    expectUpstreamCredentials(upstream, 'anthropic', rig.anthropic, rig.key);
    expect(upstream.headers['anthropic-version']).toBe(sent.headers.at(-1)!.get('anthropic-version'));

    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit).toMatchObject({
      kind: 'request', family: 'anthropic', operation: 'messages', model: MODEL, provider: 'anthropic', status: 200,
      tokens: { input: data.usage.input_tokens, output: data.usage.output_tokens },
    });
  });

  it('a bare claude- name routes by prefix and goes up byte for byte', async () => {
    const result = await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'bare' }] });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: bare' }]);
    expect(last(rig.anthropic).body).toBe(sent.bodies.at(-1));
  });

  it('streaming arrives event by event, and the audit has the usage read on the side', async () => {
    const { data: stream, response } = await client.messages.create({
      model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }], stream: true,
    }).withResponse();
    const events: Array<{ at: number; event: Anthropic.RawMessageStreamEvent }> = [];
    for await (const event of stream) events.push({ at: Date.now(), event });

    expect(events[0]?.event.type).toBe('message_start');
    expect(events.at(-1)?.event.type).toBe('message_stop');
    const text = events.map(({ event }) => (event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : '')).join('');
    expect(text).toBe(`echo: ${PROMPT}`);

    const upstream = last(rig.anthropic);
    const closedAt = await rig.anthropic.waitForClose(upstream);
    expect(events.length).toBeGreaterThanOrEqual(10);
    expect(events[0]!.at).toBeLessThan(closedAt - 300);
    expect(events.at(-1)!.at - events[0]!.at).toBeGreaterThanOrEqual(300);
    expect(upstream.body).toBe(withModel(sent.bodies.at(-1)!, MODEL, 'claude-sonnet-4-5'));

    const delta = events.find(({ event }) => event.type === 'message_delta')!.event as Anthropic.RawMessageDeltaEvent;
    const start = events[0]!.event as Anthropic.RawMessageStartEvent;
    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit).toMatchObject({ model: MODEL, provider: 'anthropic', status: 200, tokens: { input: start.message.usage.input_tokens, output: delta.usage.output_tokens } });
  });

  it('beta messages: anthropic-beta forwarded, the query kept as the client sent it', async () => {
    const result = await client.beta.messages.create({
      model: MODEL, max_tokens: 32, betas: ['interleaved-thinking-2025-05-14'], messages: [{ role: 'user', content: 'beta call' }],
    });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: beta call' }]);
    const upstream = last(rig.anthropic);
    // @anthropic-ai/sdk 1.12 sends no ?beta=true itself (Claude Code does: next test).
    expect(upstream.path).toBe('/v1/messages');
    expect(upstream.query).toEqual(Object.fromEntries(new URL(sent.urls.at(-1)!).searchParams));
    expect(upstream.headers['anthropic-beta']).toBe(sent.headers.at(-1)!.get('anthropic-beta'));
    expect(upstream.headers['anthropic-beta']).toContain('interleaved-thinking-2025-05-14');
    expect(upstream.body).toBe(withModel(sent.bodies.at(-1)!, MODEL, 'claude-sonnet-4-5'));
    expectUpstreamCredentials(upstream, 'anthropic', rig.anthropic, rig.key);
  });

  it('beta messages to a provider of another dialect: the beta is not forwarded, and the record says it was dropped', async () => {
    const { data, response } = await client.beta.messages.create({
      model: 'openai/gpt-4o', max_tokens: 32, betas: ['interleaved-thinking-2025-05-14'], messages: [{ role: 'user', content: 'beta elsewhere' }],
    }).withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'echo: beta elsewhere' }]);
    expect(last(rig.openai).headers['anthropic-beta']).toBeUndefined();
    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit.warnings).toContain('dropped:anthropic-beta');
  });

  it('a Claude Code–shaped call (x-api-key, ?beta=true, stream) is relayed with its headers and bytes', async () => {
    const beta = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27';
    // Odd spacing and key order on purpose: the bytes must survive, not a re-serialisation.
    const body = '{"stream": true,\n "max_tokens":32000, "model":"claude-sonnet-4-5","messages":[{"role":"user","content":"a b c d"}],"metadata":{"user_id":"{\\"s\\":1}"}}';
    const response = await fetch(`${rig.gw.url}/v1/messages?beta=true`, {
      method: 'POST', body,
      headers: { 'x-api-key': rig.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': beta, 'content-type': 'application/json', 'x-app': 'cli' },
    });
    expect(response.status).toBe(200);
    const { text } = await readTimed(response);
    expect(text).toContain('event: message_start');
    expect(text).toContain('event: message_stop');
    const upstream = last(rig.anthropic);
    expect(upstream.query).toEqual({ beta: 'true' });
    expect(upstream.body).toBe(body);
    expect(upstream.headers['anthropic-beta']).toBe(beta);
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01');
    expectUpstreamCredentials(upstream, 'anthropic', rig.anthropic, rig.key);
  });

  it('count_tokens', async () => {
    const { data, response } = await client.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'count these words please' }] }).withResponse();
    expect(data.input_tokens).toBe(Math.ceil('count these words please'.length / 4));
    const upstream = last(rig.anthropic);
    expect(upstream.path).toBe('/v1/messages/count_tokens');
    expect(upstream.body).toBe(withModel(sent.bodies.at(-1)!, MODEL, 'claude-sonnet-4-5'));
    expectUpstreamCredentials(upstream, 'anthropic', rig.anthropic, rig.key);
    expect(await auditRecord(rig.gw.home, response.headers.get('x-request-id')!)).toMatchObject({ operation: 'messages.count_tokens', provider: 'anthropic', status: 200 });
  });
});

describe('GET /v1/models with anthropic-version', () => {
  it('answers in the Anthropic list shape with bare claude-* ids, as Claude Code\'s model discovery reads them (issue 39)', async () => {
    const models: Anthropic.ModelInfo[] = [];
    for await (const model of client.models.list()) models.push(model);
    const ids = models.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining(['claude-sonnet-4-20250514']));
    expect(ids.filter((id) => !id.startsWith('claude-'))).toEqual([]);
    expect(models.every((model) => model.type === 'model')).toBe(true);

    const raw = await fetch(`${rig.gw.url}/v1/models`, { headers: { 'x-api-key': rig.key, 'anthropic-version': '2023-06-01' } });
    const body = await raw.json() as Record<string, unknown>;
    expect(body).toMatchObject({ has_more: false, first_id: expect.any(String), last_id: expect.any(String) });
    expect(body.object).toBeUndefined();
  });
});

describe('unknown models', () => {
  it('→ 404 in the Anthropic error shape', async () => {
    const before = rig.anthropic.requests.length;
    const response = await post(rig, '/v1/messages', { model: 'no-such-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }, { 'anthropic-version': '2023-06-01' });
    expect(response.status).toBe(404);
    const body = await response.json() as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('no-such-model') } });
    await expect(client.messages.create({ model: 'nosuchprovider/claude-x', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }))
      .rejects.toBeInstanceOf(Anthropic.NotFoundError);
    expect(rig.anthropic.requests.length).toBe(before);
  });
});

describe('HEAD /', () => {
  it('answers 200 without a key (Claude Code probes its base URL)', async () => {
    const response = await fetch(rig.gw.url, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });
});

describe('stream wire format', () => {
  it('the raw SSE text the client gets is the provider events, in order, with their event: lines', async () => {
    const response = await post(rig, '/v1/messages', { model: MODEL, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'wire' }] }, { 'anthropic-version': '2023-06-01' });
    const { text } = await readTimed(response);
    const types = sseData(text).map((event) => (event as { type: string }).type);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(text.match(/^event: /gm)?.length).toBe(types.length);
  });
});

describe('audit trail', () => {
  it('gw stops cleanly and gw audit verify exits 0', async () => { await stopAndVerify(rig); }, 20_000);
});
