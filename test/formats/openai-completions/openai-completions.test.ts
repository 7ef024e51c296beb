// OpenAI legacy Completions codec: fixtures with golden translations, the conversation
// template, the stream read back by openai-node's own SSE parser, a fast-check round trip, errors.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { Stream } from 'openai/core/streaming';
import type { Completion } from 'openai/resources/completions';
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/request.js';
import type { CanonicalResponse, StreamPart } from '../../../src/canonical/response.js';
import { GatewayError } from '../../../src/errors.js';
import { encodeCompletionsError, encodeCompletionsStreamError, openAiCompletionsCodec as codec } from '../../../src/formats/openai-completions/index.js';
import { SseDecoder } from '../../../src/streaming/sse-decoder.js';

const dir = path.resolve(import.meta.dirname, '../../fixtures/formats/openai-completions');
const text = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
const fixture = (name: string): unknown => JSON.parse(text(name));
const context = { ids: () => 'abc', now: () => 1_700_000_000 };
const MODEL = 'gpt-3.5-turbo-instruct';

async function parseWithSdk(sse: string): Promise<Completion[]> {
  const stream = Stream.fromSSEResponse<Completion>(new Response(sse, { headers: { 'content-type': 'text/event-stream' } }), new AbortController());
  const chunks: Completion[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('requests', () => {
  it('decodes the basic fixture to the golden canonical request and encodes it back', () => {
    const wire = fixture('basic.request.json') as Record<string, unknown>;
    const decoded = codec.decodeRequest(wire, { model: MODEL, stream: false });
    expect(decoded).toEqual(fixture('basic.canonical.json'));
    expect(codec.encodeRequest(decoded.value)).toEqual({ value: wire, warnings: [] });
  });

  it('keeps the first of several prompts and says so; refuses token arrays and wrong types', () => {
    const decoded = codec.decodeRequest({ prompt: ['one', 'two'] }, { model: MODEL, stream: false });
    expect(decoded.value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'one' }] }]);
    expect(decoded.warnings).toEqual([{ code: 'dropped:prompt-batch', detail: expect.any(String) }]);
    expect(() => codec.decodeRequest({ prompt: [1, 2] }, { model: MODEL, stream: false })).toThrow(/token arrays/);
    expect(() => codec.decodeRequest({}, { model: MODEL, stream: false })).toThrow(/prompt/);
    expect(() => codec.decodeRequest({ prompt: 'x', max_tokens: '7' }, { model: MODEL, stream: false })).toThrow(GatewayError);
    expect(() => codec.decodeRequest({ prompt: 'x', stop: [1] }, { model: MODEL, stream: false })).toThrow(/stop/);
  });

  it('flattens a conversation with the documented template and warns for what cannot cross', () => {
    const request: CanonicalRequest = {
      model: MODEL, stream: true, extensions: { anthropic: { metadata: {} }, openai: { logprobs: true } },
      system: [{ type: 'text', text: 'Be terse.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }, { type: 'tool-call', id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', content: [{ type: 'text', text: 'sunny' }] }] },
      ],
      tools: [{ type: 'function', name: 'weather', parameters: {} }], toolChoice: { type: 'auto' }, topK: 5,
      responseFormat: { type: 'json' }, stopSequences: ['a', 'b', 'c', 'd', 'e'],
    };
    const { value, warnings } = codec.encodeRequest(request);
    expect(value.prompt).toBe('System: Be terse.\n\nUser: Weather?\n\nAssistant called weather({"city":"Paris"})\n\nTool result (weather): sunny\n\nAssistant:');
    expect(value.stop).toEqual(['a', 'b', 'c', 'd']);
    expect(value.stream).toBe(true);
    expect(value).not.toHaveProperty('logprobs');
    expect(warnings.map((warning) => warning.code)).toEqual([
      'mapped:messages-to-prompt', 'dropped:image', 'dropped:reasoning', 'mapped:tool-call-to-text', 'mapped:tool-result-to-text',
      'dropped:stop-sequences', 'dropped:extension:anthropic', 'dropped:logprobs', 'dropped:tools', 'dropped:tool_choice', 'dropped:top_k', 'dropped:response_format',
    ]);
  });

  it('round-trips any request the endpoint can express (fast-check)', () => {
    const request = fc.record({
      model: fc.constant(MODEL), system: fc.constant([]), stream: fc.boolean(), extensions: fc.constant({}),
      messages: fc.string().map((prompt) => [{ role: 'user' as const, content: [{ type: 'text' as const, text: prompt }] }]),
      maxOutputTokens: fc.option(fc.nat(), { nil: undefined }), temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }),
      topP: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      stopSequences: fc.option(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), { nil: undefined }), user: fc.option(fc.string(), { nil: undefined }),
    }, { requiredKeys: ['model', 'system', 'stream', 'extensions', 'messages'] });
    fc.assert(fc.property(request, (value) => {
      const encoded = codec.encodeRequest(value as CanonicalRequest);
      expect(encoded.warnings).toEqual([]);
      expect(codec.decodeRequest(JSON.parse(JSON.stringify(encoded.value)), { model: MODEL, stream: value.stream }).value).toEqual(value);
    }), { numRuns: 200 });
  });
});

describe('responses', () => {
  it('decodes the basic response to the golden canonical response and encodes it back', () => {
    const wire = fixture('basic.response.json') as Record<string, unknown>;
    const decoded = codec.decodeResponse(wire);
    expect(decoded).toEqual(fixture('basic.response.canonical.json'));
    expect(codec.encodeResponse(decoded.value, { ...context, now: () => wire.created as number })).toEqual(wire);
  });

  it('round-trips any text response (fast-check)', () => {
    const response = fc.record({
      id: fc.stringMatching(/^cmpl-[a-z0-9]{1,8}$/), model: fc.constant(MODEL),
      content: fc.string({ minLength: 1 }).map((value) => [{ type: 'text' as const, text: value }]),
      finishReason: fc.constantFrom({ unified: 'stop' as const, raw: 'stop' }, { unified: 'length' as const, raw: 'length' }, { unified: 'content-filter' as const, raw: 'content_filter' }),
      usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() }).map((usage) => ({ ...usage, totalTokens: usage.inputTokens + usage.outputTokens })),
      extensions: fc.constant({}),
    });
    fc.assert(fc.property(response, (value: CanonicalResponse) => {
      expect(codec.decodeResponse(codec.encodeResponse(value, context)).value).toEqual(value);
    }));
  });

  it('warns when extra choices or logprobs are dropped', () => {
    const decoded = codec.decodeResponse({ choices: [{ text: 'a', index: 0, logprobs: { tokens: [] }, finish_reason: 'stop' }, { text: 'b', index: 1 }] });
    expect(decoded.warnings.map((warning) => warning.code)).toEqual(['dropped:choices', 'dropped:logprobs']);
  });
});

describe('streams', () => {
  it('decodes the recorded stream to the golden parts', () => {
    const sse = new SseDecoder();
    const decoder = codec.createStreamDecoder();
    const parts = [...sse.push(new TextEncoder().encode(text('streaming.sse'))), ...sse.end()].flatMap((event) => decoder.push(event));
    parts.push(...decoder.end());
    expect(parts).toEqual(fixture('streaming.parts.json'));
  });

  it('encodes parts into a stream openai-node parses, usage on the finish chunk', async () => {
    const encoder = codec.createStreamEncoder({ model: 'my-model', context });
    const parts = fixture('streaming.parts.json') as StreamPart[];
    const sse = parts.map((part) => encoder.push(part)).join('') + encoder.end();
    expect(sse.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = await parseWithSdk(sse);
    expect(chunks.map((chunk) => chunk.choices[0]?.text).join('')).toBe('This is a test');
    expect(chunks.every((chunk) => chunk.id === 'cmpl-7iA7iJjj8V2zOkCGvWF2hAkDWBQZe' && chunk.model === 'my-model' && chunk.object === 'text_completion')).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
  });

  it('ends a failed stream with an error line the SDK throws, and no [DONE]', async () => {
    const encoder = codec.createStreamEncoder({ model: MODEL, context });
    const sse = encoder.push({ type: 'text-delta', index: 0, delta: 'Hi' })
      + encoder.push({ type: 'error', error: { status: 429, kind: 'rate_limit', message: 'Slow down' } }) + encoder.end();
    expect(sse).not.toContain('[DONE]');
    await expect(parseWithSdk(sse)).rejects.toThrow(/Slow down/);
  });

  it('decodes an in-stream error object', () => {
    const decoder = codec.createStreamDecoder();
    expect(decoder.push({ data: '{"error":{"message":"boom","type":"server_error"}}' })).toEqual([{ type: 'error', error: { status: 0, kind: 'api_error', message: 'boom' } }]);
    expect(decoder.end()).toEqual([]);
  });
});

describe('errors', () => {
  it('decodes the bad-request fixture', () => {
    const { status, body } = fixture('bad-request.error.json') as { status: number; body: unknown };
    expect(codec.decodeError(status, body)).toEqual({ status: 400, kind: 'invalid_request', message: expect.stringContaining('maximum context length') });
    expect(codec.decodeError(429, { error: { message: 'quota', type: 'insufficient_quota' } })).toMatchObject({ kind: 'rate_limit' });
    expect(codec.decodeError(404, { error: { message: 'no model', type: 'invalid_request_error' } })).toMatchObject({ kind: 'not_found' });
  });

  it('encodes gw errors in OpenAI shape, in JSON and in a stream', () => {
    const error = new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'bad', param: 'prompt' });
    expect(encodeCompletionsError(error).body).toEqual({ error: { message: 'bad', type: 'invalid_request_error', param: 'prompt', code: 'request_invalid' } });
    expect(encodeCompletionsStreamError(error)).toBe(`data: ${JSON.stringify(encodeCompletionsError(error).body)}\n\n`);
  });
});
