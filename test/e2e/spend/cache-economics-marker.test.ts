// The opt-in prompt-cache marker (policy `cache_marker`, docs/prompt-cache.md) through a real
// `gw serve` and a provider-shaped server that keeps every body it receives: on, an Anthropic
// body without markers reaches the provider with cache_control on its first cacheable block's
// end (the system prompt, else the last tool), same format or translated, and the record says
// so; a client's own marker wins (the bytes pass unchanged); off (the default) the bytes pass
// unchanged; OpenAI Chat gets a prompt_cache_breakpoint only on GPT-5.6 and later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { auditRecord } from '../forwarding/support.js';
import { waitForState } from '../helpers.js';
import { startCacheUsageProvider, type CacheUsageProvider } from './cache-usage-provider.js';

let gw: GatewayProcess;
let fake: CacheUsageProvider;
let markerKey = '';
const SYSTEM = 'You are a careful coding agent. Follow the repository conventions. '.repeat(30);
const EPHEMERAL = { type: 'ephemeral' };

async function gwCommand(...args: string[]): Promise<{ code: number; out: string }> {
  const result = await runGw(args, { home: gw.home });
  return { code: result.code, out: `${result.stdout}${result.stderr}` };
}

/** Sends the exact bytes; returns the record and the body the provider received. */
async function send(path: string, bytes: string, key: string): Promise<{ received: string; record: Record<string, unknown> }> {
  const before = fake.requests.length;
  const response = await fetch(`${gw.url}${path}`, { method: 'POST', body: bytes, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key } });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(fake.requests.length).toBe(before + 1);
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  return { received: fake.requests[before]!.body.toString('utf8'), record };
}

beforeAll(async () => {
  fake = await startCacheUsageProvider({
    messages: { input_tokens: 10, cache_creation_input_tokens: 2_000, cache_read_input_tokens: 0, output_tokens: 5 },
    chat: { prompt_tokens: 2_010, completion_tokens: 5, total_tokens: 2_015, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 2_000 } },
    responses: { input_tokens: 2_010, output_tokens: 5, total_tokens: 2_015, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 2_000 } }, genai: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 }, bedrock: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  });
  gw = await startGatewayProcess({ env: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${fake.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: fake.url, GW_LOG_LEVEL: 'warn' } });
  const created = await gwCommand('keys', 'create', '--team', 'local', '--name', 'cached');
  expect(created.code, created.out).toBe(0);
  markerKey = /sk-gw-\w+/.exec(created.out)![0];
  const set = await gwCommand('policy', 'set', `key:${/vk_\w+/.exec(created.out)![0]}`, '--cache-marker', 'on');
  expect(set.code, set.out).toBe(0);
  expect(set.out).toContain('cache_marker=on');
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await fake?.close();
});

describe('cache_marker on (this key only)', () => {
  it('Anthropic, same format, no marker: cache_control on the system prompt, recorded as cache_marker_added', async () => {
    const client = { model: 'claude-sonnet-4-5', max_tokens: 64, system: SYSTEM, messages: [{ role: 'user', content: 'hi' }] };
    const { received, record } = await send('/v1/messages', JSON.stringify(client), markerKey);
    expect(JSON.parse(received)).toEqual({ ...client, system: [{ type: 'text', text: SYSTEM, cache_control: EPHEMERAL }] });
    expect(record.warnings).toContain('cache_marker_added');
    // The provider wrote the prefix: 2,000 tokens at the 5-minute write price, 750 nano-USD a token above input.
    expect(record.cost).toMatchObject({ cache_saved_nano_usd: -2_000 * 750 });
  });

  it('no system prompt: the last tool carries the marker (tools come first in the cached prefix)', async () => {
    const tools = [{ name: 'read', description: 'Read a file', input_schema: { type: 'object' } }, { name: 'edit', description: 'Edit a file', input_schema: { type: 'object' } }];
    const client = { model: 'claude-sonnet-4-5', max_tokens: 64, tools, messages: [{ role: 'user', content: 'hi' }] };
    const { received } = await send('/v1/messages', JSON.stringify(client), markerKey);
    expect(JSON.parse(received).tools).toEqual([tools[0], { ...tools[1], cache_control: EPHEMERAL }]);
  });

  it('the client sent a marker of its own: the body reaches the provider byte for byte, nothing recorded', async () => {
    const bytes = `{"model":"claude-sonnet-4-5", "max_tokens":64,"system":${JSON.stringify(SYSTEM)},"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral","ttl":"1h"}}]}],"unknown_field":{"b":1,"a":2}}`;
    const { received, record } = await send('/v1/messages', bytes, markerKey);
    expect(received).toBe(bytes);
    expect(record.warnings ?? []).not.toContain('cache_marker_added');
  });

  it('an OpenAI client to a Claude model (translated): the Anthropic body gets the marker', async () => {
    const client = { model: 'claude-sonnet-4-5', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'hi' }] };
    const { received, record } = await send('/v1/chat/completions', JSON.stringify(client), markerKey);
    const system = JSON.parse(received).system as Array<Record<string, unknown>>;
    expect(system.at(-1)).toMatchObject({ type: 'text', cache_control: EPHEMERAL });
    expect(record.warnings).toContain('cache_marker_added');
  });

  it('OpenAI Chat to GPT-5.6: prompt_cache_breakpoint on the system message; to gpt-4o (no breakpoints): unchanged', async () => {
    const client = { model: 'gpt-5.6-terra', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'hi' }] };
    const { received, record } = await send('/v1/chat/completions', JSON.stringify(client), markerKey);
    expect(JSON.parse(received).messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: SYSTEM, prompt_cache_breakpoint: { mode: 'explicit' } }] });
    expect(record.warnings).toContain('cache_marker_added');
    const older = JSON.stringify({ ...client, model: 'gpt-4o' });
    expect((await send('/v1/chat/completions', older, markerKey)).received).toBe(older);
  });

  it('OpenAI Responses (Codex) to GPT-5.6: the breakpoint on its developer message\'s last part', async () => {
    const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: SYSTEM }] };
    const client = { model: 'gpt-5.6-terra', instructions: 'be brief', input: [developer, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] };
    const { received, record } = await send('/v1/responses', JSON.stringify(client), markerKey);
    expect(JSON.parse(received).input[0]).toEqual({ ...developer, content: [{ type: 'input_text', text: SYSTEM, prompt_cache_breakpoint: { mode: 'explicit' } }] });
    expect(record.warnings).toContain('cache_marker_added');
    // Written by the provider at 1.25× input (2,500 nano-USD a token, 500 above input), as usage says.
    expect(record.tokens).toMatchObject({ cache_write: 2_000 });
  });
});

describe('cache_marker off (the default)', () => {
  it('another key of the same team: the same Anthropic body passes byte for byte', async () => {
    const bytes = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, system: SYSTEM, messages: [{ role: 'user', content: 'hi' }] });
    const { received, record } = await send('/v1/messages', bytes, gw.bootstrapKey!);
    expect(received).toBe(bytes);
    expect(record.warnings ?? []).not.toContain('cache_marker_added');
  });

  it('gw policy set refuses a value other than on, off or none', async () => {
    const refused = await gwCommand('policy', 'set', 'team:local', '--cache-marker', 'maybe');
    expect(refused.code).toBe(2);
    expect(refused.out).toContain('invalid --cache-marker "maybe"');
  });
});
