// Upstream failures through `gw serve`, as each SDK and the wire see them: the
// provider's own 4xx/5xx passed through in its shape (429 with retry-after),
// connection refused → 502, no headers in time → 504 (GW_UPSTREAM_HEADERS_TIMEOUT_MS),
// and after the first byte a reset or a silent provider becomes the format's
// in-stream error event, the stream closing cleanly without [DONE].
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { auditRecord, auditRecordWhere, closedPort, last, post, readTimed, sseData, startRig, stopAndVerify, type Rig } from './support.js';

let rig: Rig;
let openai: OpenAI;
let anthropic: Anthropic;
let genai: GoogleGenAI;

const TIMEOUT_MS = 1500;

beforeAll(async () => {
  const deadPort = await closedPort();
  rig = await startRig({
    eventDelayMs: 30,
    env: {
      GW_UPSTREAM_HEADERS_TIMEOUT_MS: String(TIMEOUT_MS),
      GW_UPSTREAM_IDLE_TIMEOUT_MS: String(TIMEOUT_MS),
      // An OpenAI-compatible server that is not running.
      VLLM_BASE_URL: `http://127.0.0.1:${deadPort}/v1`,
    },
    // An Anthropic-kind provider whose server is not running either.
    prepareHome: async (home) => {
      const added = await runGw(['providers', 'add', 'deadant', '--kind', 'anthropic', '--base-url', `http://127.0.0.1:${deadPort}`, '--api-key', 'sk-ant-dead'], { home });
      expect(added.code, added.stderr).toBe(0);
    },
  });
  openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: rig.key, httpOptions: { baseUrl: `${rig.gw.url}/genai` } });
}, 30_000);

afterAll(async () => { await rig?.close(); });

const ANTHROPIC_HEADERS = { 'anthropic-version': '2023-06-01' };

describe("the provider's own errors pass through in its shape", () => {
  it('OpenAI 429: status, body and retry-after reach the SDK', async () => {
    rig.openai.setBehaviour({ status: 429, retryAfterSeconds: 7, errorMessage: 'slow down' }, { times: 1 });
    const { data, response } = await openai.chat.completions.create({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .withResponse().then(() => ({ data: null, response: null }), (error: unknown) => ({ data: error, response: (error as { headers?: Headers }).headers }));
    expect(data).toBeInstanceOf(OpenAI.RateLimitError);
    const error = data as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.status).toBe(429);
    expect(error.error).toEqual({ message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' });
    expect(response?.get('retry-after')).toBe('7');
    // The provider's x-request-id replaces gw's on the response, so the record is found by its status.
    const audit = await auditRecordWhere(rig.gw.home, (line) => line.status === 429 && line.provider === 'openai');
    expect(audit).toMatchObject({ model: 'openai/gpt-4o', outcome: expect.arrayContaining(['upstream_429']) });
  });

  it('Anthropic 429 and 529: the SDK gets the provider error body and headers', async () => {
    rig.anthropic.setBehaviour({ status: 429, retryAfterSeconds: 3, errorMessage: 'too many' }, { times: 1 });
    const limited = await anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    const error = limited as InstanceType<typeof Anthropic.RateLimitError>;
    expect(error.headers?.get('retry-after')).toBe('3');
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: 'too many' } });

    rig.anthropic.setBehaviour({ status: 529, errorMessage: 'overloaded' }, { times: 1 });
    const overloaded = await anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(overloaded).toBeInstanceOf(Anthropic.APIError);
    expect((overloaded as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((overloaded as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });

  it('Gemini 429: RESOURCE_EXHAUSTED with retry-after, on the wire and through the SDK', async () => {
    rig.gemini.setBehaviour({ status: 429, retryAfterSeconds: 5, errorMessage: 'quota' }, { times: 2 });
    const response = await post(rig, '/genai/v1beta/models/gemini-2.5-flash:generateContent', { contents: [{ parts: [{ text: 'x' }] }] }, { authorization: '', 'x-goog-api-key': rig.key });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } });
    const error = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
  });

  it('OpenAI streaming request answered 500 before any byte: a plain 500 in OpenAI shape', async () => {
    rig.openai.setBehaviour({ status: 500, errorMessage: 'boom' }, { times: 1 });
    const response = await post(rig, '/v1/chat/completions', { model: 'openai/gpt-4o', stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { message: 'boom', type: 'server_error' } });
  });
});

describe('connection refused → 502', () => {
  it('in the OpenAI shape', async () => {
    const response = await post(rig, '/v1/chat/completions', { model: 'vllm/llama-3', messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { type: 'api_error', code: 'upstream_unreachable' } });
    const error = await openai.chat.completions.create({ model: 'vllm/llama-3', messages: [{ role: 'user', content: 'x' }], stream: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });

  it('in the Anthropic shape', async () => {
    const response = await post(rig, '/v1/messages', { model: 'deadant/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }, ANTHROPIC_HEADERS);
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit).toMatchObject({ status: 502, provider: 'deadant', outcome: expect.arrayContaining(['GW_ERR_UPSTREAM_UNREACHABLE']) });
  });
});

describe('no response headers in time → 504', () => {
  it.each([
    ['OpenAI', () => rig.openai, '/v1/chat/completions', { model: 'openai/gpt-4o', stream: true, messages: [{ role: 'user', content: 'x' }] }, {}],
    ['Anthropic', () => rig.anthropic, '/v1/messages', { model: 'anthropic/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }, ANTHROPIC_HEADERS],
  ] as const)('%s', async (family, fake, path, body, headers) => {
    fake().setBehaviour({ hangBeforeHeaders: true }, { times: 1 });
    const started = Date.now();
    const response = await post(rig, path, body, headers, { signal: AbortSignal.timeout(15_000) });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(504);
    const json = await response.json() as Record<string, unknown>;
    if (family === 'OpenAI') expect(json).toMatchObject({ error: { type: 'timeout_error', code: 'upstream_timeout' } });
    else expect(json).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 5_000);
    // gw gave up on the provider too.
    await fake().waitForClose(last(fake()), 2_000);
  }, 20_000);
});

describe('after the first byte: the format’s error event, then a clean end', () => {
  it('OpenAI, usage chunk hidden (events re-encoded): reset mid-stream → data: {"error":…} and no [DONE]', async () => {
    rig.openai.setBehaviour({ resetAfterEvents: 3 }, { times: 1 });
    const response = await post(rig, '/v1/chat/completions', { model: 'openai/gpt-4o', stream: true, messages: [{ role: 'user', content: 'one two three four' }] });
    expect(response.status).toBe(200);
    const { text } = await readTimed(response);
    const events = sseData(text);
    expect(events.length).toBe(4);
    expect(events.slice(0, 3).every((event) => (event as { object?: string }).object === 'chat.completion.chunk')).toBe(true);
    expect(events.at(-1)).toMatchObject({ error: { type: 'api_error', code: 'upstream_unreachable' } });
    expect(text).not.toContain('[DONE]');
    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit).toMatchObject({ status: 200, outcome: expect.arrayContaining(['GW_ERR_UPSTREAM_UNREACHABLE']) });
  });

  it('OpenAI, client asked for usage (bytes relayed as they are): the same', async () => {
    rig.openai.setBehaviour({ resetAfterEvents: 2 }, { times: 1 });
    const response = await post(rig, '/v1/chat/completions', {
      model: 'openai/gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'one two three four' }],
    });
    const { text } = await readTimed(response);
    const events = sseData(text);
    expect(events.length).toBe(3);
    expect(events.at(-1)).toMatchObject({ error: { code: 'upstream_unreachable' } });
    expect(text).not.toContain('[DONE]');
  });

  it('OpenAI through the SDK: iterating the stream raises the error after the first chunks', async () => {
    rig.openai.setBehaviour({ resetAfterEvents: 3 }, { times: 1 });
    const stream = await openai.chat.completions.create({ model: 'openai/gpt-4o', stream: true, messages: [{ role: 'user', content: 'one two three four' }] });
    const seen: string[] = [];
    const error = await (async () => { for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? ''); })().catch((caught: unknown) => caught);
    expect(seen.length).toBe(3);
    expect(error).toBeInstanceOf(OpenAI.APIError);
  });

  it('OpenAI: a provider that goes silent mid-stream → timeout error event after the idle time-out', async () => {
    rig.openai.setBehaviour({ hangAfterEvents: 2 }, { times: 1 });
    const response = await post(rig, '/v1/chat/completions', { model: 'openai/gpt-4o', stream: true, messages: [{ role: 'user', content: 'one two three four' }] }, {}, { signal: AbortSignal.timeout(15_000) });
    const { text } = await readTimed(response);
    const events = sseData(text);
    expect(events.length).toBe(3);
    expect(events.at(-1)).toMatchObject({ error: { type: 'timeout_error', code: 'upstream_timeout' } });
    expect(text).not.toContain('[DONE]');
    await rig.openai.waitForClose(last(rig.openai), 2_000);
  }, 20_000);

  it('Anthropic: reset mid-stream → event: error, no message_stop', async () => {
    rig.anthropic.setBehaviour({ resetAfterEvents: 4 }, { times: 1 });
    const response = await post(rig, '/v1/messages', { model: 'anthropic/claude-sonnet-4-5', max_tokens: 32, stream: true, messages: [{ role: 'user', content: 'one two three four' }] }, ANTHROPIC_HEADERS);
    expect(response.status).toBe(200);
    const { text } = await readTimed(response);
    expect(text).toContain('event: message_start');
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"[^"]+"\}\}\n\n$/);
    expect(text).not.toContain('message_stop');
  });

  it('Anthropic through the SDK: the error event raises an APIError', async () => {
    rig.anthropic.setBehaviour({ resetAfterEvents: 3 }, { times: 1 });
    const stream = await anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 32, stream: true, messages: [{ role: 'user', content: 'one two three four' }] });
    const error = await (async () => { for await (const _event of stream) { /* until the error */ } })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
  });

  it('Gemini alt=sse: reset mid-stream → data: {"error":{code,message,status}}', async () => {
    rig.gemini.setBehaviour({ resetAfterEvents: 2 }, { times: 1 });
    const response = await post(rig, '/genai/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [{ parts: [{ text: 'one two three four' }] }] }, { authorization: '', 'x-goog-api-key': rig.key });
    expect(response.status).toBe(200);
    const events = sseData((await readTimed(response)).text);
    expect(events.length).toBe(3);
    expect(events.at(-1)).toMatchObject({ error: { code: 502, status: 'INTERNAL' } });
  });
});

describe('audit trail', () => {
  it('gw stops cleanly and gw audit verify exits 0', async () => { await stopAndVerify(rig); }, 20_000);
});
