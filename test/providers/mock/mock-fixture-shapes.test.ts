// The mock must answer with the keys the providers document (test/fixtures/<provider>/),
// so clients and translators see the same shapes as from a real upstream.
import { describe, expect, it } from 'vitest';
import { findMissingJsonPaths, readFixture, readSseJson } from '../../support/fake-providers/missing-json-paths.js';
import { mock, readChunks, readJson } from './read-mock-response.js';
import type { MockRequest } from '../../../src/providers/mock/respond-as-mock.js';

const readText = async (request: MockRequest): Promise<string> => Buffer.concat(await readChunks(mock(request))).toString('utf8');
const json = (file: string): unknown => JSON.parse(readFixture(file));

const chat = { messages: [{ role: 'user', content: 'hi' }] };
const openAiTools = [{ type: 'function', function: { name: 'f', parameters: {} } }];
const messages = { max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
const contents = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
// Optional fields real providers add that the mock has no reason to invent.
const optional = ['[].system_fingerprint', '.system_fingerprint', '.candidates[].avgLogprobs', '.candidates[].content.parts[].functionCall.args.'];

describe('mock answers carry the documented keys', () => {
  it('OpenAI', async () => {
    expect(findMissingJsonPaths(json('openai/chat-completion.json'), await readJson(mock({ operation: 'chat', model: 'mock/a', body: chat, stream: false })), optional)).toEqual([]);
    expect(findMissingJsonPaths(json('openai/chat-completion-tool-call.json'), await readJson(mock({ operation: 'chat', model: 'mock/a', body: { ...chat, tools: openAiTools }, stream: false })), optional)).toEqual([]);
    const stream = await readText({ operation: 'chat', model: 'mock/a', body: { ...chat, stream_options: { include_usage: true } }, stream: true });
    expect(findMissingJsonPaths(readSseJson(readFixture('openai/chat-completion-stream.sse')), readSseJson(stream), optional)).toEqual([]);
    const toolStream = await readText({ operation: 'chat', model: 'mock/a', body: { ...chat, tools: openAiTools }, stream: true });
    expect(findMissingJsonPaths(readSseJson(readFixture('openai/chat-completion-tool-call-stream.sse')), readSseJson(toolStream), optional)).toEqual([]);
    expect(findMissingJsonPaths(json('openai/completion.json'), await readJson(mock({ operation: 'completions', model: 'mock/a', body: { prompt: 'p' }, stream: false })), optional)).toEqual([]);
    const completionStream = await readText({ operation: 'completions', model: 'mock/a', body: { prompt: 'p' }, stream: true });
    expect(findMissingJsonPaths(readSseJson(readFixture('openai/completion-stream.sse')), readSseJson(completionStream), optional)).toEqual([]);
    expect(findMissingJsonPaths(json('openai/embeddings.json'), await readJson(mock({ operation: 'embeddings', model: 'mock/a', body: { input: 'a' }, stream: false })))).toEqual([]);
    expect(findMissingJsonPaths(json('openai/models.json'), await readJson(mock({ operation: 'models', model: 'mock/a', body: undefined, stream: false })))).toEqual([]);
    expect(findMissingJsonPaths(json('openai/error-429.json'), await readJson(mock({ operation: 'chat', model: 'mock/error-429', body: chat, stream: false })))).toEqual([]);
  });

  it('Anthropic', async () => {
    expect(findMissingJsonPaths(json('anthropic/message.json'), await readJson(mock({ operation: 'messages', model: 'mock/a', body: messages, stream: false })))).toEqual([]);
    const stream = await readText({ operation: 'messages', model: 'mock/a', body: messages, stream: true });
    expect(findMissingJsonPaths(readSseJson(readFixture('anthropic/message-stream.sse')), readSseJson(stream))).toEqual([]);
    const toolStream = await readText({ operation: 'messages', model: 'mock/a', body: { ...messages, tools: [{ name: 'f', input_schema: {} }] }, stream: true });
    // The mock sends no ping before a tool block; the payload keys must still match.
    expect(findMissingJsonPaths(readSseJson(readFixture('anthropic/message-tool-use-stream.sse')), readSseJson(toolStream))).toEqual([]);
    expect(findMissingJsonPaths(json('anthropic/count-tokens.json'), await readJson(mock({ operation: 'count_tokens', model: 'mock/a', body: messages, stream: false })))).toEqual([]);
    expect(findMissingJsonPaths(json('anthropic/error-529.json'), await readJson(mock({ operation: 'messages', model: 'mock/error-529', body: messages, stream: false })))).toEqual([]);
  });

  it('Google', async () => {
    expect(findMissingJsonPaths(json('gemini/generate-content.json'), await readJson(mock({ operation: 'generateContent', model: 'mock/a', body: contents, stream: false })), optional)).toEqual([]);
    const stream = await readText({ operation: 'streamGenerateContent', model: 'mock/a', body: contents, stream: true });
    expect(findMissingJsonPaths(readSseJson(readFixture('gemini/stream-generate-content.sse')), readSseJson(stream), optional)).toEqual([]);
    const withTools = { ...contents, tools: [{ functionDeclarations: [{ name: 'f' }] }] };
    expect(findMissingJsonPaths(json('gemini/generate-content-function-call.json'), await readJson(mock({ operation: 'generateContent', model: 'mock/a', body: withTools, stream: false })), optional)).toEqual([]);
    expect(findMissingJsonPaths(json('gemini/count-tokens.json'), await readJson(mock({ operation: 'countTokens', model: 'mock/a', body: contents, stream: false })))).toEqual([]);
    expect(findMissingJsonPaths(json('gemini/embed-content.json'), await readJson(mock({ operation: 'embedContent', model: 'mock/a', body: { content: contents.contents[0] }, stream: false })))).toEqual([]);
    expect(findMissingJsonPaths(json('gemini/batch-embed-contents.json'), await readJson(mock({ operation: 'batchEmbedContents', model: 'mock/a', body: { requests: [{ content: contents.contents[0] }] }, stream: false })))).toEqual([]);
    expect(findMissingJsonPaths(json('gemini/error-429.json'), await readJson(mock({ operation: 'generateContent', model: 'mock/error-429', body: contents, stream: false })), ['.error.details'])).toEqual([]);
  });
});
