// Resource routes are planned like every other call (src/pipeline/plan/plan-targets.ts):
// Codex's Responses call through a routing-rule name, a header that cannot override the
// model's provider, and allow_models on a call that names no model. Each failed on the
// code before the corridor (404, the call went to the header's provider, served).
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/index.js';
import { auditRecord, post, startRig, type Rig } from '../forwarding/support.js';
import { waitForState } from '../helpers.js';

let rig: Rig;
let openai: OpenAI;
/** A second OpenAI account (provider openai-b), for previous_response_id stickiness. */
let secondOpenAi: FakeProvider;

beforeAll(async () => {
  secondOpenAi = await startFakeProvider('openai', { apiKey: 'sk-second-account', eventDelayMs: 5 });
  rig = await startRig({
    eventDelayMs: 5,
    env: { OPENAI_B_KEY: 'sk-second-account' },
    prepareHome: async (home) => {
      for (const args of [
        ['providers', 'add', 'openai-b', '--kind', 'openai', '--base-url', `${secondOpenAi.url}/v1`, '--api-key-env', 'OPENAI_B_KEY'],
        ['routes', 'add', 'sticky', '--target', 'openai/gpt-4o'],
        ['routes', 'add', 'codex-claude', '--target', 'anthropic/claude-sonnet-4-5'],
        ['routes', 'add', 'codex-gpt', '--target', 'openai/gpt-4o'],
      ]) {
        const result = await runGw(args, { home });
        expect(result.code, result.stderr).toBe(0);
      }
    },
  });
  openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
}, 60_000);

afterAll(async () => { await rig?.close(); await secondOpenAi?.close(); });

async function collect(stream: AsyncIterable<{ type: string; delta?: string }>): Promise<{ text: string; types: string[] }> {
  let text = '';
  const types: string[] = [];
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.output_text.delta') text += event.delta ?? '';
  }
  return { text, types };
}

it("Codex's streaming Responses call through a routing-rule name reaches the rule's Claude target (translated)", async () => {
  const stream = await openai.responses.create({
    model: 'codex-claude', stream: true, instructions: 'You are Codex.', store: false,
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello from codex' }] }],
  });
  const { text, types } = await collect(stream as AsyncIterable<{ type: string; delta?: string }>);
  expect(text).toContain('hello from codex');
  expect(types.at(-1)).toBe('response.completed');
  expect(rig.anthropic.requests.at(-1)!.json).toMatchObject({ model: 'claude-sonnet-4-5' });
});

it("a routing-rule name on /v1/responses reaches an OpenAI target same-format, the model patched", async () => {
  const before = rig.openai.requests.length;
  const stream = await openai.responses.create({ model: 'codex-gpt', stream: true, input: 'hello again' });
  const { types } = await collect(stream as AsyncIterable<{ type: string; delta?: string }>);
  expect(types.at(-1)).toBe('response.completed');
  expect(rig.openai.requests.length).toBe(before + 1);
  expect(rig.openai.requests.at(-1)!.json).toMatchObject({ model: 'gpt-4o' });
});

it("x-gw-provider cannot send a model's call to another provider", async () => {
  const before = rig.openai.requests.length;
  const response = await post(rig, '/v1/responses', { model: 'mock/echo', input: 'hi' }, { 'x-gw-provider': 'openai' });
  expect(response.status).toBe(400);
  expect(JSON.stringify(await response.json())).toContain('x-gw-provider');
  expect(rig.openai.requests.length).toBe(before);
});

it('allow_models refuses a call that names no model (the provider would pick one)', async () => {
  const created = await runGw(['keys', 'create', '--team', 'local', '--name', 'narrow'], { home: rig.gw.home });
  const key = /sk-gw-\w+/.exec(created.stdout)![0];
  const id = /vk_\w+/.exec(created.stderr)![0];
  const set = await runGw(['policy', 'set', `key:${id}`, '--allow-models', 'openai/gpt-4o-mini'], { home: rig.gw.home });
  expect(set.code, set.stderr).toBe(0);
  await waitForState(rig.gw);
  const before = rig.openai.requests.length;
  const response = await fetch(`${rig.gw.url}/v1/images/generations`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'a cat' }),
  });
  expect(response.status).toBe(403);
  expect(await response.text()).toContain('names no model');
  expect(rig.openai.requests.length).toBe(before);
  const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
  expect(record.outcome).toContain('GW_ERR_POLICY_DENIED');
});

it('a Responses call with previous_response_id goes to the provider that created the response, whatever the rule now picks', async () => {
  const first = await openai.responses.create({ model: 'sticky', input: 'remember me' });
  expect(rig.openai.requests.at(-1)!.path).toBe('/v1/responses');
  const changed = await runGw(['routes', 'add', 'sticky', '--target', 'openai-b/gpt-4o'], { home: rig.gw.home });
  expect(changed.code, changed.stderr).toBe(0);
  await waitForState(rig.gw);
  const before = { a: rig.openai.requests.length, b: secondOpenAi.requests.length };
  await openai.responses.create({ model: 'sticky', input: 'a fresh one' });
  expect(secondOpenAi.requests.length).toBe(before.b + 1);
  await openai.responses.create({ model: 'sticky', input: 'and the follow-up', previous_response_id: first.id });
  expect(rig.openai.requests.length).toBe(before.a + 1);
  expect(rig.openai.requests.at(-1)!.json).toMatchObject({ previous_response_id: first.id, model: 'gpt-4o' });
  expect(secondOpenAi.requests.length).toBe(before.b + 1);
});
