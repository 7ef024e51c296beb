// @ai-sdk/google (opencode) puts a model that contains `/` straight after the API version,
// without `models/`: `/genai/v1beta/openai/gpt-4o:generateContent`. gw routes it like
// `models/{provider}/{model}` (it answered 404 before).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { post, startRig, type Rig } from '../forwarding/support.js';

let rig: Rig;

beforeAll(async () => { rig = await startRig({ eventDelayMs: 5 }); }, 60_000);
afterAll(async () => { await rig?.close(); });

const body = { contents: [{ role: 'user', parts: [{ text: 'hello slashed' }] }] };

it('a slashed model after /genai/v1beta reaches its provider, translated', async () => {
  const before = rig.openai.requests.length;
  const response = await post(rig, '/genai/v1beta/openai/gpt-4o:generateContent', body, { 'x-goog-api-key': rig.key });
  expect(response.status).toBe(200);
  const answer = await response.json() as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
  expect(answer.candidates[0]!.content.parts[0]!.text).toContain('hello slashed');
  expect(rig.openai.requests.length).toBe(before + 1);
  expect(rig.openai.requests.at(-1)!.json).toMatchObject({ model: 'gpt-4o' });
});

it('and streams on the unprefixed /v1beta path Gemini CLI and the SDKs use', async () => {
  const response = await post(rig, '/v1beta/anthropic/claude-sonnet-4-5:streamGenerateContent?alt=sse', body, { 'x-goog-api-key': rig.key });
  expect(response.status).toBe(200);
  const text = (await response.text()).split('\n').filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }> })
    .map((chunk) => chunk.candidates?.[0]?.content?.parts?.map((part) => part.text ?? '').join('') ?? '').join('');
  expect(text).toContain('hello slashed');
  expect(rig.anthropic.requests.at(-1)!.json).toMatchObject({ model: 'claude-sonnet-4-5' });
});
