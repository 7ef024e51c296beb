// The chat stream encoder's output, read by openai-node's own ChatCompletionStream.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../../../../src/canonical/response.js';
import { openAiChatCodec as codec } from '../../../../src/formats/openai-chat/index.js';
import { decodeStream, encodeStream, fixedContext, fixtures, parseSse, withSseServer } from '../../../formats/codec-support.js';

const { text } = fixtures('openai-chat');

async function readWithSdk(sse: string): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  return withSseServer(sse, async (baseURL) => {
    const client = new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    return stream.finalChatCompletion();
  });
}

describe('openai-chat stream encoder', () => {
  it('re-encodes the interleaved parallel tool calls so the SDK assembles both calls', async () => {
    const parts = decodeStream(codec.createStreamDecoder(), text('parallel-tools.sse'));
    const sse = encodeStream(codec.createStreamEncoder({ model: 'gpt-4o', context: fixedContext() }), parts);
    const completion = await readWithSdk(sse);
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('Checking both.');
    expect(message?.tool_calls?.map((call) => call.type === 'function' && [call.id, call.function.arguments])).toEqual([
      ['call_1', '{"location":"Boston"}'], ['call_2', '{"location":"Paris"}'],
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(sse.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('sends the role first, usage in a last chunk with no choices, then [DONE]', async () => {
    const parts: StreamPart[] = [
      { type: 'response-start', id: 'msg_1', model: 'claude-x' },
      { type: 'reasoning-start', index: 0 }, { type: 'reasoning-delta', index: 0, delta: 'hm' },
      { type: 'reasoning-opaque', index: 0, signature: 'sig' }, { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 }, { type: 'text-delta', index: 1, delta: 'Hello' }, { type: 'text-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: { inputTokens: 2100, outputTokens: 5, cachedReadTokens: 2000, cacheWriteTokens: 0 } },
    ];
    const sse = encodeStream(codec.createStreamEncoder({ model: 'gpt-4o', context: fixedContext() }), parts);
    const chunks = parseSse(sse).map((event) => (event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data) as Record<string, unknown>));
    expect(chunks[0]).toMatchObject({ id: 'msg_1', object: 'chat.completion.chunk', model: 'gpt-4o', choices: [{ delta: { role: 'assistant', content: '' } }] });
    expect(chunks.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 2100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 2000 } } });
    expect(chunks.at(-1)).toBe('[DONE]');
    const completion = await readWithSdk(sse);
    expect(completion.choices[0]?.message.content).toBe('Hello');
    expect(completion.usage?.total_tokens).toBe(2105);
  });

  it('leaves out the usage chunk when the client did not ask for it', () => {
    const encoder = codec.createStreamEncoder({ model: 'm', context: fixedContext(), includeUsage: false });
    const sse = encodeStream(encoder, [{ type: 'finish', finishReason: { unified: 'length' }, usage: { outputTokens: 1 } }]);
    expect(sse).not.toContain('"usage"');
    expect(sse).toContain('"finish_reason":"length"');
  });

  it('writes an error part as an OpenAI error object with no [DONE] after it, which the SDK raises', async () => {
    const encoder = codec.createStreamEncoder({ model: 'm', context: fixedContext() });
    const sse = encodeStream(encoder, [
      { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'Part' },
      { type: 'error', error: { status: 529, kind: 'overloaded', message: 'Overloaded' } },
    ]);
    expect(sse).not.toContain('[DONE]');
    expect(sse).toContain('data: {"error":{"message":"Overloaded","type":"server_error","param":null,"code":null}}');
    await expect(readWithSdk(sse)).rejects.toThrow(/Overloaded/);
  });
});
