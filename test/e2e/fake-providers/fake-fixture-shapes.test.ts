// The fakes must answer with the keys the providers document (test/fixtures/<provider>/).
import { openaiChat } from '../../../bench/lib/fixtures.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMissingJsonPaths, readFixture, readSseJson } from '../../support/fake-providers/missing-json-paths.js';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/start-fake-provider.js';

const fixture = readFixture;
const missingPaths = findMissingJsonPaths;
const sseData = readSseJson;

const fakes: Partial<Record<'openai' | 'anthropic' | 'gemini', FakeProvider>> = {};
beforeAll(async () => {
  fakes.openai = await startFakeProvider('openai', { eventDelayMs: 1 });
  fakes.anthropic = await startFakeProvider('anthropic', { eventDelayMs: 1 });
  fakes.gemini = await startFakeProvider('gemini', { eventDelayMs: 1 });
});
afterAll(async () => { await Promise.all(Object.values(fakes).map((fake) => fake.close())); });

async function post(kind: 'openai' | 'anthropic' | 'gemini', path: string, body: unknown): Promise<string> {
  const response = await fetch(`${fakes[kind]?.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) });
  return response.text();
}

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };
const tools = [{ type: 'function', function: { name: 'get_current_weather', parameters: { type: 'object' } } }];
const anthropicBody = { model: 'claude-sonnet-4-20250514', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
const gemini = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

describe('fake answers carry the documented keys', () => {
  it('OpenAI chat JSON, tool call, stream and usage chunk', async () => {
    expect(missingPaths(JSON.parse(fixture('openai/chat-completion.json')), JSON.parse(await post('openai', '/v1/chat/completions', chat)))).toEqual([]);
    expect(missingPaths(JSON.parse(fixture('openai/chat-completion-tool-call.json')), JSON.parse(await post('openai', '/v1/chat/completions', { ...chat, tools })))).toEqual([]);
    const documented = sseData(fixture('openai/chat-completion-stream.sse'));
    const actual = sseData(await post('openai', '/v1/chat/completions', { ...chat, stream: true, stream_options: { include_usage: true } }));
    expect(missingPaths(documented, actual)).toEqual([]);
    const documentedTool = sseData(fixture('openai/chat-completion-tool-call-stream.sse'));
    expect(missingPaths(documentedTool, sseData(await post('openai', '/v1/chat/completions', { ...chat, tools, stream: true })))).toEqual([]);
  });

  it('OpenAI completions and embeddings', async () => {
    const optional: string[] = [];
    expect(missingPaths(JSON.parse(fixture('openai/completion.json')), JSON.parse(await post('openai', '/v1/completions', { model: 'x', prompt: 'p' })), optional)).toEqual([]);
    expect(missingPaths(sseData(fixture('openai/completion-stream.sse')), sseData(await post('openai', '/v1/completions', { model: 'x', prompt: 'p', stream: true })), optional)).toEqual([]);
    expect(missingPaths(JSON.parse(fixture('openai/embeddings.json')), JSON.parse(await post('openai', '/v1/embeddings', { model: 'x', input: 'a' })))).toEqual([]);
  });

  it('Anthropic message JSON and streams', async () => {
    expect(missingPaths(JSON.parse(fixture('anthropic/message.json')), JSON.parse(await post('anthropic', '/v1/messages', anthropicBody)))).toEqual([]);
    expect(missingPaths(sseData(fixture('anthropic/message-stream.sse')), sseData(await post('anthropic', '/v1/messages', { ...anthropicBody, stream: true })))).toEqual([]);
    const withTools = { ...anthropicBody, stream: true, tools: [{ name: 'get_weather', input_schema: { type: 'object' } }] };
    expect(missingPaths(sseData(fixture('anthropic/message-tool-use-stream.sse')), sseData(await post('anthropic', '/v1/messages', withTools)))).toEqual([]);
    expect(missingPaths(JSON.parse(fixture('anthropic/count-tokens.json')), JSON.parse(await post('anthropic', '/v1/messages/count_tokens', anthropicBody)))).toEqual([]);
  });

  it('Gemini generateContent, stream, function call, countTokens and embeddings', async () => {
    const optional = ['.candidates[].avgLogprobs'];
    expect(missingPaths(JSON.parse(fixture('gemini/generate-content.json')), JSON.parse(await post('gemini', '/v1beta/models/gemini-2.5-flash:generateContent', gemini)), optional)).toEqual([]);
    expect(missingPaths(sseData(fixture('gemini/stream-generate-content.sse')), sseData(await post('gemini', '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', gemini)))).toEqual([]);
    const withTools = { ...gemini, tools: [{ functionDeclarations: [{ name: 'get_current_weather' }] }] };
    expect(missingPaths(JSON.parse(fixture('gemini/generate-content-function-call.json')), JSON.parse(await post('gemini', '/v1beta/models/gemini-2.5-flash:generateContent', withTools)), ['.candidates[].content.parts[].functionCall.args.'])).toEqual([]);
    expect(missingPaths(JSON.parse(fixture('gemini/count-tokens.json')), JSON.parse(await post('gemini', '/v1beta/models/gemini-2.5-flash:countTokens', gemini)))).toEqual([]);
    expect(missingPaths(JSON.parse(fixture('gemini/embed-content.json')), JSON.parse(await post('gemini', '/v1beta/models/e:embedContent', { content: gemini.contents[0] })))).toEqual([]);
    expect(missingPaths(JSON.parse(fixture('gemini/batch-embed-contents.json')), JSON.parse(await post('gemini', '/v1beta/models/e:batchEmbedContents', { requests: [{ content: gemini.contents[0] }] })))).toEqual([]);
  });

  it('errors use the documented shapes', async () => {
    const shapes: Array<[FakeProvider | undefined, string, string]> = [
      [fakes.openai, '/v1/chat/completions', 'openai/error-429.json'],
      [fakes.anthropic, '/v1/messages', 'anthropic/error-429.json'],
      [fakes.gemini, '/v1beta/models/g:generateContent', 'gemini/error-429.json'],
    ];
    for (const [fake, path, file] of shapes) {
      const response = await fetch(`${fake?.url}${path}`, { method: 'POST', headers: { 'x-fake-behaviour': '{"status":429}', 'anthropic-version': '2023-06-01' }, body: '{}' });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(missingPaths(JSON.parse(fixture(file)), await response.json(), ['.error.details'])).toEqual([]);
    }
  });

  it('the mock answer of the bench (bench/lib/fixtures.mjs) agrees with the OpenAI fixture keys', () => {
    // The bench's mock upstream and the recorded example describe the same object.
    const bench = JSON.parse(openaiChat.json.toString('utf8')) as unknown;
    expect(missingPaths(JSON.parse(fixture('openai/chat-completion.json')), bench)).toEqual([]);
  });
});
