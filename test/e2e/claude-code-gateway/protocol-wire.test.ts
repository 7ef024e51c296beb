// Claude Code's gateway protocol on the wire (issue 39, part 2), against one real `gw serve`
// and a real Anthropic-shaped provider: what reaches the provider from a Claude Code-shaped
// call, GET /protocol, model discovery for an Anthropic caller, and the Anthropic error
// shape on paths gw does not serve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup } from '../../support/gateway-process.js';
import { last, startRig, type Rig } from '../forwarding/support.js';
import { HEADER_RULES } from '../../../src/pipeline/govern/header-rules.js';
import { waitForState } from '../helpers.js';

let rig: Rig;

/** The headers Claude Code 2.1.197 sends on /v1/messages (its Stainless SDK's and its own). */
const CLAUDE_CODE_HEADERS = {
  'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14',
  'anthropic-dangerous-direct-browser-access': 'true', 'x-app': 'cli', 'user-agent': 'claude-cli/2.1.197 (external, cli)',
  'x-stainless-lang': 'js', 'x-stainless-package-version': '0.70.0', 'x-stainless-os': 'Linux', 'x-stainless-arch': 'x64',
  'x-stainless-runtime': 'node', 'x-stainless-runtime-version': 'v24.3.0', 'x-stainless-retry-count': '0', 'x-stainless-timeout': '600',
  'x-claude-code-session-id': 'c0ffee00-0000-4000-8000-000000000001',
};

beforeAll(async () => {
  rig = await startRig({ eventDelayMs: 5 });
}, 30_000);

afterAll(async () => { await rig?.close(); });

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('what reaches an Anthropic provider', () => {
  it('the body byte for byte, anthropic-* and x-stainless-* unchanged, the user-agent kept with a gw suffix, no hop count', async () => {
    const body = '{"model":"claude-sonnet-4-20250514","max_tokens":16,  "messages":[{"role":"user","content":"wire"}],"metadata":{"user_id":"u"}}';
    const response = await fetch(`${rig.gw.url}/v1/messages?beta=true`, {
      method: 'POST', body, headers: { ...CLAUDE_CODE_HEADERS, ...bearer(rig.key), 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const upstream = last(rig.anthropic);
    expect(upstream.body).toBe(body);
    for (const [name, value] of Object.entries(CLAUDE_CODE_HEADERS)) {
      if (name.startsWith('anthropic-') || name.startsWith('x-stainless-')) expect(upstream.headers[name], name).toBe(value);
    }
    expect(upstream.headers['user-agent']).toBe('claude-cli/2.1.197 (external, cli) gw/0.1.0');
    expect(upstream.headers['x-gw-hops']).toBeUndefined();
    expect(upstream.headers['x-claude-code-session-id']).toBeUndefined();
    expect(upstream.headers.authorization).toBeUndefined();
  });
});

describe('GET /protocol', () => {
  it('is markdown generated from the header list gw applies, served without a credential', async () => {
    const response = await fetch(`${rig.gw.url}/protocol`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await response.text();
    expect(text).toMatch(/^# gw: Claude Code gateway protocol/);
    for (const rule of HEADER_RULES) expect(text, rule.name).toContain(`\`${rule.name}${rule.prefix ? '*' : ''}\``);
    expect(text).toContain('## Forwarded to the provider');
    expect(text).toContain('## Consumed by gw (never sent on)');
    expect(text).toContain('## Added by gw');
  });
});

describe('GET /v1/models to an Anthropic caller', () => {
  it("bare claude-* ids in Anthropic's list shape, no mock/*; an OpenAI caller keeps the prefixed list", async () => {
    for (const caller of [{ 'anthropic-version': '2023-06-01' }, { 'user-agent': 'claude-cli/2.1.197 (external, cli)' }]) {
      const response = await fetch(`${rig.gw.url}/v1/models`, { headers: { ...caller, ...bearer(rig.key) } });
      expect(response.status).toBe(200);
      const list = await response.json() as { data: Array<{ type: string; id: string; display_name: string }>; has_more: boolean };
      const ids = list.data.map((model) => model.id);
      expect(ids).toEqual(expect.arrayContaining(['claude-sonnet-4-20250514', 'claude-opus-4-1-20250805']));
      expect(ids.every((id) => id.startsWith('claude-')), ids.join(',')).toBe(true);
      expect(list.data[0]).toMatchObject({ type: 'model', display_name: expect.any(String) });
      expect(list.has_more).toBe(false);
    }
    const openai = await (await fetch(`${rig.gw.url}/v1/models`, { headers: bearer(rig.key) })).json() as { object: string; data: Array<{ id: string }> };
    expect(openai.object).toBe('list');
    expect(openai.data.map((model) => model.id)).toContain('anthropic/claude-sonnet-4-20250514');
  });

  it("lists only what the caller's model allow-list admits, and count_tokens works for a listed bare id", async () => {
    const created = await runGwSetup(['keys', 'create', '--team', 'local', '--name', 'sonnet-only'], { home: rig.gw.home });
    const printed = `${created.stdout}${created.stderr}`;
    const key = /sk-gw-\w+/.exec(printed)?.[0] ?? '';
    const id = /vk_\w+/.exec(printed)?.[0] ?? '';
    expect((await runGwSetup(['policy', 'set', `key:${id}`, '--allow-models', 'anthropic/claude-sonnet-*'], { home: rig.gw.home })).code).toBe(0);
    await waitForState(rig.gw);
    const list = await (await fetch(`${rig.gw.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01', ...bearer(key) } })).json() as { data?: Array<{ id: string }> };
    const ids = (list.data ?? []).map((model) => model.id);
    expect(ids).toEqual(['claude-sonnet-4-20250514']);
    const counted = await fetch(`${rig.gw.url}/v1/messages/count_tokens`, {
      method: 'POST', headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...bearer(key) },
      body: JSON.stringify({ model: ids[0], messages: [{ role: 'user', content: 'one two three' }] }),
    });
    expect(counted.status, await counted.clone().text()).toBe(200);
    expect(await counted.json()).toMatchObject({ input_tokens: expect.any(Number) });
  });
});

describe('errors in the Anthropic shape', () => {
  it('a path gw does not serve answers 404 not_found_error to Claude Code, and OpenAI-shaped to others', async () => {
    const claude = await fetch(`${rig.gw.url}/v1/unknown-thing`, { headers: { 'user-agent': 'claude-cli/2.1.197 (external, cli)', ...bearer(rig.key) } });
    expect(claude.status).toBe(404);
    expect(await claude.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('/v1/unknown-thing') } });
    const other = await fetch(`${rig.gw.url}/v1/unknown-thing`, { headers: bearer(rig.key) });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'route_not_found' } });
  });

  it('a refused credential on model discovery answers 401 authentication_error', async () => {
    const response = await fetch(`${rig.gw.url}/v1/models`, { headers: { 'user-agent': 'claude-cli/2.1.197 (external, cli)', authorization: 'Bearer atu-expired-or-unknown' } });
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } });
    expect(JSON.stringify(body)).not.toContain('atu-expired-or-unknown');
  });
});
