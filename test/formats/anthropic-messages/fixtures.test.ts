// Recorded wire bodies (test/fixtures/formats/anthropic-messages, see its README) decoded to golden
// canonical JSON and encoded back to golden wire bodies.
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/request.js';
import { GatewayError } from '../../../src/errors.js';
import { anthropicMessagesCodec as codec } from '../../../src/formats/anthropic-messages/index.js';
import { decodeStream, expectGolden, fixedContext, fixtures } from '../codec-support.js';

const { dir, json, text } = fixtures('anthropic-messages');

describe('anthropic-messages requests', () => {
  for (const scenario of ['basic', 'claude-code', 'images']) {
    it(`${scenario}: decodes to the golden canonical request and encodes back to the golden body`, () => {
      const body = json(`${scenario}.request.json`) as Record<string, unknown>;
      const decoded = codec.decodeRequest(body, { model: String(body.model), stream: body.stream === true });
      expectGolden(dir, `${scenario}.request.canonical.json`, decoded);
      expectGolden(dir, `${scenario}.request.encoded.json`, codec.encodeRequest(decoded.value));
    });
  }

  it('puts role "system" messages into the system, in order, and splits tool results from user text', () => {
    const { value } = codec.decodeRequest(json('claude-code.request.json'), { model: 'claude-opus-4-8', stream: true });
    expect(value.system.map((part) => part.text)).toEqual([
      'x-anthropic-billing-header: cc_version=2.1.197', "You are Claude Code, Anthropic's official CLI for Claude.", 'The working directory is /repo.',
    ]);
    expect(value.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(value.messages[2]?.content[0]).toMatchObject({ toolCallId: 'toolu_01A', toolName: 'Bash', cacheControl: { type: 'ephemeral' } });
    expect(value.reasoning).toEqual({ include: true, effort: 'high' });
    expect(value.parallelToolCalls).toBe(false);
    expect(value.extensions.anthropic).toMatchObject({ server_tools: [{ type: 'web_search_20250305' }], context_management: {} });
  });

  it('defaults max_tokens above a thinking budget, drops foreign reasoning and unsigned thinking, with warnings', () => {
    const request: CanonicalRequest = {
      model: 'claude', stream: false, system: [], extensions: { openai: { seed: 1, stream_options: { include_usage: true } } },
      reasoning: { budgetTokens: 8000, effort: 'minimal' }, responseFormat: { type: 'json' },
      messages: [{ role: 'assistant', content: [
        { type: 'reasoning', text: 'a', encrypted: 'x', origin: 'openai' }, { type: 'reasoning', text: 'b' },
        { type: 'tool-call', id: 't', name: 'f', arguments: '{broken' },
      ] }],
    };
    const { value, warnings } = codec.encodeRequest(request);
    expect(value.max_tokens).toBe(12_096);
    expect(value.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    expect(value.output_config).toEqual({ effort: 'low' });
    expect(value.messages).toEqual([{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }]);
    expect(warnings.map((warning) => warning.code).sort()).toEqual([
      'defaulted:max_tokens', 'dropped:reasoning', 'dropped:reasoning', 'dropped:response_format', 'dropped:seed', 'mapped:reasoning_effort', 'mapped:tool_call.arguments',
    ]);
  });

  it.each([
    [{ messages: {} }, 'messages'],
    [{ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', data: 'x' } }] }] }, 'messages[0].content[0].source.media_type'],
    [{ messages: [], max_tokens: 'many' }, 'max_tokens'],
    [{ messages: [], thinking: { type: 'enabled' } }, 'thinking.budget_tokens'],
    [{ messages: [], tool_choice: { type: 'maybe' } }, 'tool_choice.type'],
    [{ messages: [], system: [{ type: 'image' }] }, 'system[0].type'],
  ])('refuses %j naming %s', (body, param) => {
    let caught: unknown;
    try {
      codec.decodeRequest(body, { model: 'm', stream: false });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect((caught as GatewayError).param).toBe(param);
  });
});

describe('anthropic-messages responses', () => {
  for (const scenario of ['basic', 'tools']) {
    it(`${scenario}: decodes to the golden canonical response and encodes back`, () => {
      const decoded = codec.decodeResponse(json(`${scenario}.response.json`));
      expectGolden(dir, `${scenario}.response.canonical.json`, decoded);
      expectGolden(dir, `${scenario}.response.encoded.json`, codec.encodeResponse(decoded.value, fixedContext()));
    });
  }

  it('adds cache reads and writes into inputTokens and takes them out again for the client', () => {
    const { value } = codec.decodeResponse(json('tools.response.json'));
    expect(value.usage).toEqual({ inputTokens: 2112, outputTokens: 88, cachedReadTokens: 2000, cacheWriteTokens: 100, totalTokens: 2200 });
    expect(codec.encodeResponse(value, fixedContext()).usage).toEqual({ input_tokens: 12, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 88 });
  });
});

describe('anthropic-messages stream decoder', () => {
  for (const scenario of ['streaming', 'parallel-tools', 'reasoning', 'mid-stream-error']) {
    it(`${scenario}: decodes to the golden parts`, () => {
      expectGolden(dir, `${scenario}.parts.json`, decodeStream(codec.createStreamDecoder(), text(`${scenario}.sse`)));
    });
  }

  it('merges usage from message_start and message_delta and skips server tool blocks', () => {
    const parts = decodeStream(codec.createStreamDecoder(), text('parallel-tools.sse'));
    expect(parts.filter((part) => part.type === 'tool-call-start').map((part) => part.index)).toEqual([2, 3]);
    expect(parts).toContainEqual({ type: 'reasoning-opaque', index: 0, signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' });
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: 472, outputTokens: 89, totalTokens: 561 } });
  });

  it('turns the error event into an error part with the status its type stands for', () => {
    const parts = decodeStream(codec.createStreamDecoder(), text('mid-stream-error.sse'));
    expect(parts.at(-1)).toEqual({ type: 'error', error: { status: 529, kind: 'overloaded', message: 'Overloaded' } });
  });
});

describe('anthropic-messages errors', () => {
  it('decodes a 400 and a 529', () => {
    const bad = json('bad-request.error.json') as { status: number; body: unknown };
    expect(codec.decodeError(bad.status, bad.body)).toEqual({ status: 400, kind: 'invalid_request', message: 'max_tokens: Field required' });
    const overloaded = json('overloaded.error.json') as { status: number; body: unknown };
    expect(codec.decodeError(overloaded.status, overloaded.body)).toEqual({ status: 529, kind: 'overloaded', message: 'Overloaded' });
    expect(codec.decodeError(500, { type: 'error', error: { type: 'overloaded_error', message: 'o' } })).toMatchObject({ kind: 'overloaded' });
  });
});
