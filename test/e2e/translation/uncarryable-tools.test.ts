// Built-in tools only their own provider runs (OpenAI's web_search, Anthropic's server tools):
// offered to a provider of another dialect they are dropped and named in the record's warnings
// (Codex and Claude Code offer them on every call); forced with tool_choice they cannot be
// honoured, and the call is a 400 naming the tool before anything reaches a provider.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditRecord, startRig, type Rig } from '../forwarding/support.js';

let rig: Rig;
beforeAll(async () => { rig = await startRig({ eventDelayMs: 2 }); }, 60_000);
afterAll(async () => { await rig?.close(); });

const providerCalls = () => rig.fakes().reduce((sum, fake) => sum + fake.requests.length, 0);

it('web_search offered by a Responses client to Claude: dropped and named in the warnings', async () => {
  const openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
  const { data, response } = await openai.responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'look it up', tools: [{ type: 'web_search' }] }).withResponse();
  expect(data.output_text).toBe('echo: look it up');
  expect((rig.anthropic.requests.at(-1)!.json as { tools?: unknown }).tools).toBeUndefined();
  expect((await auditRecord(rig.gw.home, response.headers.get('x-request-id')!)).warnings).toContain('dropped:tool:web_search');
});

it('web_search forced by a Responses client to Claude: 400 naming it, no provider call', async () => {
  const openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
  const before = providerCalls();
  const error = await openai.responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'look it up', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } as never }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
  expect(String((error as Error).message)).toContain('"web_search"');
  expect(providerCalls()).toBe(before);
});

it("Anthropic's server web search forced by an Anthropic client on a GPT model: 400 naming it, in Anthropic's error shape", async () => {
  const anthropic = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url, maxRetries: 0 });
  const before = providerCalls();
  const error = await anthropic.messages.create({
    model: 'openai/gpt-4o', max_tokens: 64, messages: [{ role: 'user', content: 'search' }],
    tools: [{ type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'tool', name: 'web_search' },
  }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(Anthropic.APIError);
  expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
  expect(JSON.stringify((error as InstanceType<typeof Anthropic.APIError>).error)).toMatch(/invalid_request_error.*web_search/);
  expect(providerCalls()).toBe(before);
});
