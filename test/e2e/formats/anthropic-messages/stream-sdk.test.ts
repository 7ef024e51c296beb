// The Messages stream encoder's output, read by @anthropic-ai/sdk's own MessageStream.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../../../../src/canonical/response.js';
import { anthropicMessagesCodec as codec } from '../../../../src/formats/anthropic-messages/index.js';
import { decodeStream, encodeStream, fixedContext, fixtures, parseSse, withSseServer } from '../../../formats/codec-support.js';

const { text } = fixtures('anthropic-messages');
const openAiParts = fixtures('openai-chat').json('parallel-tools.parts.json') as StreamPart[];

async function readWithSdk(sse: string): Promise<Anthropic.Message> {
  return withSseServer(sse, async (baseURL) => {
    const client = new Anthropic({ apiKey: 'test', baseURL, maxRetries: 0 });
    return client.messages.stream({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
  });
}

function encode(parts: StreamPart[]): string {
  return encodeStream(codec.createStreamEncoder({ model: 'claude-x', context: fixedContext() }), parts);
}

describe('anthropic-messages stream encoder', () => {
  it('serialises OpenAI tool-call deltas interleaved across two calls into well-formed sequential blocks', async () => {
    const sse = encode(openAiParts);
    const events = parseSse(sse).map((event) => JSON.parse(event.data) as { type: string; index?: number });
    // Every block is started, then stopped, before the next one starts.
    const open: number[] = [];
    for (const event of events) {
      if (event.type === 'content_block_start') open.push(event.index as number);
      if (event.type === 'content_block_delta') expect(open.at(-1)).toBe(event.index);
      if (event.type === 'content_block_stop') expect(open.pop()).toBe(event.index);
      expect(open.length).toBeLessThanOrEqual(1);
    }
    const message = await readWithSdk(sse);
    expect(message.content).toEqual([
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'Boston' } },
      { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { location: 'Paris' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.model).toBe('claude-x');
  });

  it('round-trips a recorded Anthropic stream with thinking, signature and usage through the SDK', async () => {
    const parts = decodeStream(codec.createStreamDecoder(), text('parallel-tools.sse'));
    const message = await readWithSdk(encode(parts));
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: 'Need both cities.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' });
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(message.usage).toMatchObject({ input_tokens: 472, output_tokens: 89 });
  });

  it('starts a redacted_thinking block with its data and subtracts cache tokens from input_tokens', async () => {
    const parts: StreamPart[] = [
      { type: 'response-start', id: 'chatcmpl-1', model: 'gpt' },
      { type: 'reasoning-start', index: 0 }, { type: 'reasoning-opaque', index: 0, redacted: 'abc' }, { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 }, { type: 'text-delta', index: 1, delta: 'Hi' },
      { type: 'finish', finishReason: { unified: 'length', raw: 'length' }, usage: { inputTokens: 2100, cachedReadTokens: 2000, outputTokens: 7 } },
    ];
    const message = await readWithSdk(encode(parts));
    expect(message.id).toBe('chatcmpl-1');
    expect(message.content).toEqual([{ type: 'redacted_thinking', data: 'abc' }, { type: 'text', text: 'Hi' }]);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage).toMatchObject({ input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 7 });
  });

  it('writes an error part as the error event, which the SDK raises, and nothing after it', async () => {
    const sse = encode([{ type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'Part' }, { type: 'error', error: { status: 429, kind: 'rate_limit', message: 'Slow down' } }]);
    expect(sse.endsWith('event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}\n\n')).toBe(true);
    await expect(readWithSdk(sse)).rejects.toThrow(/Slow down/);
  });
});
