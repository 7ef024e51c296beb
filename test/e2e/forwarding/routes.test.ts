// Routing and header rules through `gw serve` to the three fakes: the passthrough
// prefixes (rest of the path forwarded verbatim), hop-by-hop headers dropped
// (also those named in Connection), the x-gw-hops loop stop (the count itself goes only to
// another gw: test/pipeline/govern/upstream-headers.test.ts), and a provider URL
// that points at gw itself skipped at start.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, expectUpstreamCredentials, last, post, readTimed, sseData, startRig, stopAndVerify, type Rig } from './support.js';

let rig: Rig;
let selfPort: number;

beforeAll(async () => {
  selfPort = await closedPort();
  rig = await startRig({
    eventDelayMs: 20,
    // A later --port wins over the helper's --port 0; OLLAMA_BASE_URL points back at this very gw.
    args: ['--port', String(selfPort)],
    env: { OLLAMA_BASE_URL: `http://localhost:${selfPort}/v1` },
  });
}, 30_000);

afterAll(async () => { await rig?.close(); });

describe('passthrough prefixes', () => {
  it('/openai_passthrough/…: the rest of the path, the query and the body go up verbatim', async () => {
    const body = '{"model":"gpt-4o",  "messages":[{"role":"user","content":"through"}]}';
    const response = await post(rig, '/openai_passthrough/v1/chat/completions?trace=1', body);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ model: 'gpt-4o', choices: [{ message: { content: 'echo: through' } }] });
    const upstream = last(rig.openai);
    expect(upstream.path).toBe('/v1/chat/completions');
    expect(upstream.query).toEqual({ trace: '1' });
    expect(upstream.body).toBe(body);
    expectUpstreamCredentials(upstream, 'openai', rig.openai, rig.key);

    const list = await fetch(`${rig.gw.url}/openai_passthrough/v1/models`, { headers: { authorization: `Bearer ${rig.key}` } });
    expect(list.status).toBe(200);
    // The provider's own catalog, unprefixed: nothing is rewritten on a passthrough.
    expect((await list.json() as { data: Array<{ id: string }> }).data.map((model) => model.id)).toContain('gpt-4o-mini');
    expect(last(rig.openai)).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it('/anthropic_passthrough/…: ?beta=true, anthropic-version and anthropic-beta kept, credentials swapped', async () => {
    const body = '{"model":"claude-sonnet-4-5","max_tokens":16,"messages":[{"role":"user","content":"through"}]}';
    const response = await post(rig, '/anthropic_passthrough/v1/messages?beta=true', body, {
      authorization: '', 'x-api-key': rig.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-scope-2026-01-05',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'echo: through' }] });
    const upstream = last(rig.anthropic);
    expect(upstream.path).toBe('/v1/messages');
    expect(upstream.query).toEqual({ beta: 'true' });
    expect(upstream.body).toBe(body);
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.headers['anthropic-beta']).toBe('prompt-caching-scope-2026-01-05');
    expectUpstreamCredentials(upstream, 'anthropic', rig.anthropic, rig.key);
  });

  it('/genai_passthrough/…: streams as it arrives, alt=sse kept, a ?key= never forwarded', async () => {
    const body = '{"contents":[{"role":"user","parts":[{"text":"a b c d e"}]}]}';
    const response = await post(rig, `/genai_passthrough/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${rig.key}`, body, {
      authorization: '', 'x-goog-api-key': rig.key,
    });
    expect(response.status).toBe(200);
    const { text, pieces } = await readTimed(response);
    const records = sseData(text) as Array<{ candidates: Array<{ content: { parts: Array<{ text: string }> } }> }>;
    expect(records.map((record) => record.candidates[0]?.content.parts[0]?.text).join('')).toBe('echo: a b c d e');
    expect(pieces.length).toBeGreaterThan(1);
    const upstream = last(rig.gemini);
    expect(upstream.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(upstream.query).toEqual({ alt: 'sse' });
    expect(upstream.body).toBe(body);
    expectUpstreamCredentials(upstream, 'gemini', rig.gemini, rig.key);
  });
});

describe('headers', () => {
  it('hop-by-hop headers and any header named in Connection are dropped; x-gw-hops is read, never sent to Anthropic', async () => {
    const body = JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hop' }] });
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${rig.gw.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'x-api-key': rig.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01',
          connection: 'keep-alive, anthropic-beta', 'anthropic-beta': 'must-not-pass', 'keep-alive': 'timeout=5', te: 'trailers',
          'proxy-authorization': 'Basic c2VjcmV0', cookie: 'session=1', 'x-gw-hops': '3', 'content-length': Buffer.byteLength(body),
        },
      }, (response) => { response.resume(); response.on('end', () => resolve(response.statusCode ?? 0)); });
      request.on('error', reject);
      request.end(body);
    });
    expect(status).toBe(200);
    const { headers } = last(rig.anthropic);
    for (const name of ['anthropic-beta', 'keep-alive', 'te', 'proxy-authorization', 'cookie']) expect(headers[name], name).toBeUndefined();
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers['x-gw-hops']).toBeUndefined();
    expectUpstreamCredentials(last(rig.anthropic), 'anthropic', rig.anthropic, rig.key);
  });

  it('a request that already crossed 8 gateways is refused with 508 and never forwarded', async () => {
    const counts = rig.fakes().map((fake) => fake.requests.length);
    const response = await post(rig, '/v1/chat/completions', { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'loop' }] }, { 'x-gw-hops': '8' });
    expect(response.status).toBe(508);
    expect(await response.json()).toMatchObject({ error: { code: 'upstream_loop' } });
    const anthropic = await post(rig, '/v1/messages', { model: 'anthropic/claude-x', max_tokens: 8, messages: [{ role: 'user', content: 'loop' }] }, { 'x-gw-hops': '9', 'anthropic-version': '2023-06-01' });
    expect(anthropic.status).toBe(508);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    expect(rig.fakes().map((fake) => fake.requests.length)).toEqual(counts);
  });
});

describe('a provider pointing at gw itself', () => {
  it('is skipped at start with a warning, so its models 404 instead of looping', async () => {
    expect(rig.gw.url).toBe(`http://127.0.0.1:${selfPort}`);
    expect(rig.gw.stdout()).toMatch(new RegExp(`warning: provider ollama: OLLAMA_BASE_URL=http://localhost:${selfPort}/v1 points at this gw itself; skipped`));
    const response = await post(rig, '/v1/chat/completions', { model: 'ollama/llama3', messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'model_not_found' } });
  });
});

describe('audit trail', () => {
  it('gw stops cleanly and gw audit verify exits 0', async () => { await stopAndVerify(rig); }, 20_000);
});
