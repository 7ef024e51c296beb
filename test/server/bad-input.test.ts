// Bad input gets a precise status and message in the caller's wire format, is
// recorded, and leaves the audit chain intact (checked in close()).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/errors.js';
import { startInProcessGateway, type InProcessGateway } from '../support/in-process-gateway.js';
import type { WireJson } from '../support/wire-json.js';

let gateway: InProcessGateway;
beforeEach(async () => { gateway = await startInProcessGateway(); });
afterEach(async () => { await gateway.close(); });

function post(url: string, payload: string | Buffer, headers: Record<string, string> = {}) {
  return gateway.app.inject({ method: 'POST', url, payload, headers: { 'x-gw-vk': gateway.key, 'content-type': 'application/json', ...headers } });
}

describe('bad request bodies', () => {
  it('malformed JSON: 400 in the OpenAI shape, without echoing the body', async () => {
    const response = await post('/v1/chat/completions', '{"model": sk-secret-in-body');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ type: 'invalid_request_error', code: 'request_malformed_json' });
    expect(response.body).not.toContain('sk-secret-in-body');
    expect((await gateway.auditRecords()).at(-1)).toMatchObject({ kind: 'request', status: 400, outcome: ['GW_ERR_REQUEST_MALFORMED_JSON'] });
  });

  it('malformed JSON on /v1/messages: 400 in the Anthropic shape', async () => {
    const response = await post('/v1/messages', '{bad');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('an empty body: 400', async () => {
    const response = await post('/v1/messages', '');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('empty');
  });

  it('a wrong content type: 415 in the Google shape on GenAI routes', async () => {
    const response = await post('/genai/v1beta/models/gemini-2.5-flash:generateContent', 'hello', { 'content-type': 'text/plain' });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ error: { code: 415, status: 'INVALID_ARGUMENT' } });
  });

  it('a non-UTF-8 charset or invalid UTF-8 bytes: refused, never parsed', async () => {
    expect((await post('/v1/chat/completions', '{}', { 'content-type': 'application/json; charset=utf-16' })).statusCode).toBe(415);
    const invalid = Buffer.concat([Buffer.from('{"model":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await post('/v1/chat/completions', invalid);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('UTF-8');
  });

  it('__proto__ in the body: 400', async () => {
    const response = await post('/v1/chat/completions', '{"__proto__":{"polluted":true}}');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('__proto__');
  });

  it('__proto__ and constructor.prototype spelled with \\u escapes, deep in a message: 400 (the fast parse path must not skip them)', async () => {
    for (const body of [
      '{"model":"m","messages":[{"role":"user","content":"hi","\\u005f\\u005fproto\\u005f\\u005f":{"polluted":true}}]}',
      '{"model":"m","x":{"constructor":{"prototype":{"polluted":true}}}}',
      '{"model":"m","x":{"\\u0063onstructor":{"prototype":{"polluted":true}}}}',
    ]) {
      const response = await post('/v1/chat/completions', body);
      expect(response.statusCode, body).toBe(400);
      expect(response.json().error.message).toMatch(/__proto__|constructor/);
    }
  });

  it('a body over body_limit_bytes: 413 before it is read, and the connection is closed', async () => {
    await gateway.store.update((draft) => { draft.settings.body_limit_bytes = 1024; });
    const response = await post('/v1/chat/completions', JSON.stringify({ model: 'x', padding: 'a'.repeat(4096) }));
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(response.json().error.message).toContain('body_limit_bytes');
  });
});

describe('routes', () => {
  it.each([
    ['/v1/nope', (body: WireJson) => body.error.code === 'route_not_found'],
    ['/v1/messages/nope', (body: WireJson) => body.type === 'error' && body.error.type === 'not_found_error'],
    ['/genai/v1beta/nope', (body: WireJson) => body.error.status === 'NOT_FOUND'],
  ])('an unknown route %s is a 404 in its family shape', async (url, check) => {
    const response = await gateway.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(check(response.json())).toBe(true);
  });

  it('an operation not delivered yet answers 501 naming the operation, in the family shape', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/v1/models/some-model', headers: { 'x-gw-vk': gateway.key } });
    expect(response.statusCode).toBe(501);
    expect(response.json()).toMatchObject({ error: { message: expect.stringContaining('models.retrieve') } });
  });

  it('a resource route with no provider of its kind answers 404 naming the kinds that offer it', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/v1/messages/batches', headers: { 'x-gw-vk': gateway.key, 'content-type': 'application/json' }, payload: '{}' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ type: 'error', error: { message: expect.stringContaining('messages.batches') } });
    expect(response.json().error.message).toContain('anthropic');
  });

  it('HEAD / answers 200 without a credential (Claude Code probes it)', async () => {
    expect((await gateway.app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
  });

  it('every response carries x-request-id', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/health' });
    expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe('health and metrics', () => {
  it('/health reports ok with its components', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', components: { state: { status: 'ok', store: 'file', mtime_ns: expect.stringMatching(/^[1-9]\d*$/), file_id: expect.stringMatching(/^\d+:\d+:\d+:\d+$/) }, audit: { status: 'ok' } } });
  });

  it('/metrics is Prometheus text with bounded labels (no key ids, no teams)', async () => {
    await post('/v1/chat/completions', '{bad');
    const response = await gateway.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toMatch(/gw_requests_total\{family="openai",operation="chat.completions",status_class="4xx"\} 1/);
    expect(response.body).toContain('gw_request_duration_seconds_bucket');
    expect(response.body).not.toContain(gateway.keyId);
    expect(response.body).not.toContain('alpha');
  });
});

describe('error catalog', () => {
  it('every code is GW_ERR_<AREA>_<WHAT> with an HTTP status and a message', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      expect(code).toMatch(/^GW_ERR_[A-Z]+(_[A-Z]+)+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.message.length).toBeGreaterThan(10);
    }
  });
});
