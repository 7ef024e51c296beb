// A body gw must translate and cannot read is refused before any provider call, in the client's
// own error shape, with the one wording every dialect shares (src/formats/shared/json-guards.ts):
// "Invalid value for 'x': expected …" for a wrong field, "Missing required parameter: 'x'." for an absent one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRig, type Rig } from '../forwarding/support.js';

let rig: Rig;
beforeAll(async () => { rig = await startRig({ eventDelayMs: 2 }); }, 60_000);
afterAll(async () => { await rig?.close(); });

const providerCalls = () => rig.fakes().reduce((sum, fake) => sum + fake.requests.length, 0);

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${rig.gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

it('a Chat client, a Claude model: a wrong field in OpenAI\'s error shape, with its param', async () => {
  const before = providerCalls();
  const { status, json } = await post('/v1/chat/completions', { model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }], temperature: 'hot' }, { authorization: `Bearer ${rig.key}` });
  expect(status).toBe(400);
  expect(json).toMatchObject({ error: { message: "Invalid value for 'temperature': expected a number.", type: 'invalid_request_error', param: 'temperature' } });
  expect(providerCalls()).toBe(before);
});

it('an Anthropic client, a GPT model: a missing field in Anthropic\'s error shape', async () => {
  const before = providerCalls();
  const body = { model: 'openai/gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] };
  const { status, json } = await post('/v1/messages', body, { 'x-api-key': rig.key, 'anthropic-version': '2023-06-01' });
  expect(status).toBe(400);
  expect(json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: "Missing required parameter: 'messages[0].content[0].tool_use_id'." } });
  expect(providerCalls()).toBe(before);
});

it('a Gemini client, a GPT model: the same wording in Google\'s error shape', async () => {
  const before = providerCalls();
  const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 'many' } };
  const { status, json } = await post('/v1beta/models/openai/gpt-4o:generateContent', body, { 'x-goog-api-key': rig.key });
  expect(status).toBe(400);
  expect(json).toMatchObject({ error: { code: 400, message: "Invalid value for 'generationConfig.maxOutputTokens': expected a number." } });
  expect(providerCalls()).toBe(before);
});
