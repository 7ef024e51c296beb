// Recorded wire bodies (test/fixtures/formats/openai-chat, see its README) decoded to golden canonical
// JSON and encoded back to golden wire bodies.
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/request.js';
import type { CanonicalResponse, StreamPart } from '../../../src/canonical/response.js';
import { GatewayError } from '../../../src/errors.js';
import { openAiChatCodec as codec } from '../../../src/formats/openai-chat/index.js';
import { decodeStream, expectGolden, fixedContext, fixtures } from '../codec-support.js';

const { dir, json, text } = fixtures('openai-chat');

describe('openai-chat requests', () => {
  for (const scenario of ['basic', 'tools', 'images']) {
    it(`${scenario}: decodes to the golden canonical request and encodes back to the golden body`, () => {
      const body = json(`${scenario}.request.json`) as Record<string, unknown>;
      const decoded = codec.decodeRequest(body, { model: String(body.model), stream: body.stream === true });
      expectGolden(dir, `${scenario}.request.canonical.json`, decoded);
      const encoded = codec.encodeRequest(decoded.value);
      expectGolden(dir, `${scenario}.request.encoded.json`, encoded);
    });
  }

  it('keeps chat-only fields in extensions.openai and returns them to an OpenAI provider', () => {
    const body = json('basic.request.json') as Record<string, unknown>;
    const { value } = codec.decodeRequest(body, { model: 'gpt-4o-mini', stream: false });
    expect(value.extensions.openai).toEqual({ seed: 7, logprobs: true, n: 1 });
    expect(codec.encodeRequest(value).value).toMatchObject({ seed: 7, logprobs: true, n: 1 });
  });

  it('asks the provider for usage on streams and merges consecutive tool messages into one', () => {
    const body = json('tools.request.json') as Record<string, unknown>;
    const { value } = codec.decodeRequest(body, { model: 'gpt-4o', stream: true });
    expect(value.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(value.messages[2]?.content).toHaveLength(2);
    expect(value.parallelToolCalls).toBe(false);
    expect(codec.encodeRequest({ ...value, extensions: {} }).value.stream_options).toEqual({ include_usage: true });
  });

  it('drops reasoning, top_k and cache breakpoints with warnings when encoding', () => {
    const request: CanonicalRequest = {
      model: 'gpt-4o', stream: false, extensions: { anthropic: { context_management: {}, server_tools: [{ name: 'web_search' }] } },
      system: [{ type: 'text', text: 'sys', cacheControl: { type: 'ephemeral' } }],
      messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: 'hm', signature: 'sig', origin: 'anthropic' }, { type: 'text', text: 'ok' }] }],
      topK: 5, reasoning: { budgetTokens: 10_000, include: true },
    };
    const { value, warnings } = codec.encodeRequest(request);
    expect(warnings.map((warning) => warning.code).sort()).toEqual([
      'dropped:cache_control', 'dropped:context_management', 'dropped:reasoning', 'dropped:reasoning.include', 'dropped:tool:web_search',
      'dropped:top_k', 'mapped:reasoning.budget_tokens',
    ]);
    expect(value.reasoning_effort).toBe('medium');
    expect(value.messages).toEqual([{ role: 'system', content: 'sys' }, { role: 'assistant', content: 'ok' }]);
  });
});

describe('openai-chat request validation', () => {
  const decode = (body: unknown): unknown => codec.decodeRequest(body, { model: 'm', stream: false });
  it.each([
    [{ messages: 'hi' }, 'messages'],
    [{ messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
    [{ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url'],
    [{ messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    [{ messages: [], temperature: 'hot' }, 'temperature'],
    [{ messages: [], max_tokens: 1.5 }, 'max_tokens'],
    [{ messages: [], stop: [1] }, 'stop[0]'],
    [{ messages: [], tool_choice: 'sometimes' }, 'tool_choice'],
  ])('refuses %j naming %s', (body, param) => {
    expect(() => decode(body)).toThrow(GatewayError);
    try {
      decode(body);
    } catch (error) {
      expect((error as GatewayError).code).toBe('GW_ERR_REQUEST_INVALID');
      expect((error as GatewayError).param).toBe(param);
    }
  });
});

describe('openai-chat responses', () => {
  for (const scenario of ['basic', 'tools', 'reasoning', 'cache-usage']) {
    it(`${scenario}: decodes to the golden canonical response and encodes back`, () => {
      const decoded = codec.decodeResponse(json(`${scenario}.response.json`));
      expectGolden(dir, `${scenario}.response.canonical.json`, decoded);
      expectGolden(dir, `${scenario}.response.encoded.json`, codec.encodeResponse(decoded.value, fixedContext()));
    });
  }

  it('counts cached tokens inside inputTokens, as OpenAI does', () => {
    const { value } = codec.decodeResponse(json('cache-usage.response.json'));
    expect(value.usage).toMatchObject({ inputTokens: 2006, cachedReadTokens: 1920, outputTokens: 300 });
    expect(value.finishReason).toEqual({ unified: 'length', raw: 'length' });
  });

  it('writes reasoning from another provider as reasoning_content rather than losing it', () => {
    const response: CanonicalResponse = {
      id: '', model: 'claude', extensions: {}, usage: { inputTokens: 3, outputTokens: 4, cacheWriteTokens: 1 },
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      content: [{ type: 'reasoning', text: 'think', signature: 's' }, { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{}' }],
    };
    const body = codec.encodeResponse(response, fixedContext());
    expect(body).toMatchObject({ id: 'chatcmpl-id1', choices: [{ finish_reason: 'tool_calls', message: { reasoning_content: 'think', content: null } }] });
  });
});

describe('openai-chat streams', () => {
  for (const scenario of ['streaming', 'parallel-tools', 'reasoning', 'mid-stream-error']) {
    it(`${scenario}: decodes to the golden parts`, () => {
      expectGolden(dir, `${scenario}.parts.json`, decodeStream(codec.createStreamDecoder(), text(`${scenario}.sse`)));
    });
  }

  it('keeps interleaved parallel tool calls apart by their index', () => {
    const parts = decodeStream(codec.createStreamDecoder(), text('parallel-tools.sse'));
    const args = new Map<number, string>();
    for (const part of parts) if (part.type === 'tool-call-delta') args.set(part.index, (args.get(part.index) ?? '') + part.argumentsDelta);
    expect([...args.values()]).toEqual(['{"location":"Boston"}', '{"location":"Paris"}']);
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: {} });
  });

  it('finishes with the usage chunk that comes after the finish reason', () => {
    const parts: StreamPart[] = decodeStream(codec.createStreamDecoder(), text('streaming.sse'));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 2006, cachedReadTokens: 1920, outputTokens: 9 } });
  });

  it('turns an in-stream error object into an error part and stops', () => {
    const parts = decodeStream(codec.createStreamDecoder(), text('mid-stream-error.sse'));
    expect(parts.slice(-2)).toEqual([
      { type: 'text-end', index: 0 },
      { type: 'error', error: { status: 500, kind: 'api_error', message: 'The server had an error while processing your request. Sorry about that!' } },
    ]);
  });
});

describe('openai-chat errors', () => {
  it('decodes a 400 and a 429', () => {
    const bad = json('bad-request.error.json') as { status: number; body: unknown };
    expect(codec.decodeError(bad.status, bad.body)).toEqual({ status: 400, kind: 'invalid_request', message: "Invalid value for 'temperature': expected a number <= 2." });
    const limited = json('rate-limit.error.json') as { status: number; body: unknown };
    expect(codec.decodeError(limited.status, limited.body)).toMatchObject({ status: 429, kind: 'rate_limit' });
  });

  it('keeps an honest status for bodies that are not OpenAI-shaped', () => {
    expect(codec.decodeError(502, '<html>Bad Gateway</html>')).toEqual({ status: 502, kind: 'api_error', message: '<html>Bad Gateway</html>' });
    expect(codec.decodeError(503, {})).toMatchObject({ status: 503, kind: 'overloaded' });
    expect(codec.decodeError(200, { error: { message: 'slow down', type: 'rate_limit_error' } })).toMatchObject({ status: 429, kind: 'rate_limit' });
  });
});
