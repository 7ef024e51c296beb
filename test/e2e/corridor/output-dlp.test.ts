// Output DLP on every path back to the client (`gw dlp output on`): a translated JSON
// answer, a translated stream, and reasoning text in a same-format stream. Before the
// corridor, none of these was scanned: the secret reached the client.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, sleep, waitForState } from '../helpers.js';
import { LEAK_TRIGGER, REASONING_LEAK_TRIGGER, startCatchAllProvider, type CatchAllProvider } from './catch-all-provider.js';

const SECRET = SAMPLES.githubPat;
let gw: GatewayProcess;
let openaiFake: CatchAllProvider;
let anthropicFake: CatchAllProvider;
let openai: OpenAI;

beforeAll(async () => {
  [openaiFake, anthropicFake] = await Promise.all([startCatchAllProvider(SECRET), startCatchAllProvider(SECRET)]);
  gw = await startGatewayProcess({
    env: { OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `${openaiFake.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-up', ANTHROPIC_BASE_URL: anthropicFake.url, GW_LOG_LEVEL: 'warn' },
  });
  const result = await runGw(['dlp', 'output', 'on'], { home: gw.home });
  expect(result.code, result.stderr).toBe(0);
  await waitForState(gw);
  openai = new OpenAI({ apiKey: gw.bootstrapKey!, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await gw?.stop();
  await Promise.all([openaiFake?.close(), anthropicFake?.close()]);
});

async function streamText(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): Promise<{ text: string; error: unknown }> {
  let text = '';
  try {
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      text += (delta?.content ?? '') + (delta?.reasoning_content ?? '');
    }
    return { text, error: null };
  } catch (error) {
    return { text, error };
  }
}

it('a translated JSON answer (Chat client, Anthropic provider) is stopped with a 403', async () => {
  const error = await openai.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: LEAK_TRIGGER }] }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
  expect(String((error as Error).message)).toContain('github_token');
  expect(String((error as Error).message)).not.toContain(SECRET);
  expect(anthropicFake.requests.length).toBeGreaterThan(0);
});

it('a translated stream (Anthropic client, OpenAI provider) ends with an error event before the secret is whole', async () => {
  const anthropic = new Anthropic({ apiKey: gw.bootstrapKey!, baseURL: gw.url, maxRetries: 0 });
  let text = '';
  let failure: unknown = null;
  try {
    const stream = anthropic.messages.stream({ model: 'openai/gpt-4o', max_tokens: 64, messages: [{ role: 'user', content: LEAK_TRIGGER }] });
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
  } catch (error) {
    failure = error;
  }
  expect(text).not.toContain(SECRET);
  expect(String(failure)).toContain('github_token');
});

it('reasoning text in a same-format stream is scanned too', async () => {
  const stream = await openai.chat.completions.create({ model: 'openai/gpt-4o', stream: true, messages: [{ role: 'user', content: REASONING_LEAK_TRIGGER }] });
  const { text, error } = await streamText(stream);
  expect(text).not.toContain(SECRET);
  expect(String(error)).toContain('github_token');
  await sleep(200);
  const record = (await readAudit(gw.home)).filter((line) => line.kind === 'request').at(-1)!;
  expect(record.dlp).toMatchObject({ 'output.github_token': 1 });
  expect(record.outcome).toContain('GW_ERR_DLP_BLOCKED');
});
