// The estimate a cut call is charged (src/spend/estimate-cut-usage.ts) and what a relayed
// stream keeps for it (src/pipeline/relay/relayed-output.ts), with the real o200k tokenizer.
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { completeUsage, estimateInputTokens, estimateOutputTokens, MEDIA_BLOB_TOKENS, TOKENIZED_BYTES } from '../../src/spend/estimate-cut-usage.js';
import { jsonArrayElements, RelayedOutput } from '../../src/pipeline/relayed-output.js';
import { encodeEventFrame } from '../../src/formats/bedrock-converse/event-stream-frames.js';
import { CODECS } from '../../src/formats/codec-registry.js';

/** OpenAI's documented count for chat input: each message's tokens, 3 per message, 3 to prime the reply. */
function openAiPromptTokens(messages: Array<{ role: string; content: string }>): number {
  return messages.reduce((sum, message) => sum + countTokens(message.role) + countTokens(message.content) + 3, 0) + 3;
}

describe('estimateInputTokens', () => {
  it('is never below what OpenAI bills for the messages, in English, code and CJK text', () => {
    for (const content of ['Say hello to the world, please.', 'function f(x){return x.map((y)=>y*2).filter(Boolean)}', '请用中文回答这个问题，谢谢你的帮助。'.repeat(20)]) {
      const messages = [{ role: 'system', content: 'You are terse.' }, { role: 'user', content }];
      const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages });
      expect(estimateInputTokens(body, countTokens)).toBeGreaterThanOrEqual(openAiPromptTokens(messages));
    }
  });

  it('counts base64 media at the per-blob allowance, not as text', () => {
    const image = Buffer.alloc(300_000, 7).toString('base64');
    const body = JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${image}` } }, { type: 'text', text: 'what is this?' }] }] });
    const estimate = estimateInputTokens(body, countTokens);
    expect(estimate).toBeGreaterThanOrEqual(MEDIA_BLOB_TOKENS + Math.ceil(image.length / 1024));
    expect(estimate).toBeLessThan(MEDIA_BLOB_TOKENS + Math.ceil(image.length / 1024) + 100);
  });

  it('past the tokenized share, counts a byte as a token (never fewer)', () => {
    let calls = 0;
    const count = (text: string) => { calls += text.length; return Math.ceil(text.length / 4); };
    const body = 'word '.repeat(TOKENIZED_BYTES / 5 + 1000);
    expect(estimateInputTokens(body, count)).toBe(Math.ceil(TOKENIZED_BYTES / 4) + (body.length - TOKENIZED_BYTES));
    expect(calls).toBe(TOKENIZED_BYTES);
  });
});

describe('estimateOutputTokens', () => {
  it('tokenizes the relayed deltas joined, and counts at least one token per delta that carried text', () => {
    expect(estimateOutputTokens(['Hello', ' world', '!'], countTokens)).toBe(countTokens('Hello world!'));
    expect(estimateOutputTokens(['a', 'b', 'c', 'd', ''], () => 1)).toBe(4);
    expect(estimateOutputTokens([], countTokens)).toBe(0);
  });
});

describe('completeUsage', () => {
  it('fills in what the provider never reported and says so', () => {
    expect(completeUsage(null, { input: () => 40, output: 12 })).toEqual({ tokens: { input: 40, output: 12, total: 52 }, estimated: true });
  });

  it('keeps a reported input, and takes the larger output (Anthropic\'s message_start says 1)', () => {
    const completed = completeUsage({ input: 25, output: 1, cached_read: 10 }, { input: () => 999, output: 30 });
    expect(completed).toEqual({ tokens: { input: 25, output: 30, cached_read: 10, total: 55 }, estimated: true });
  });

  it('leaves complete usage alone', () => {
    const reported = { input: 25, output: 40, total: 65 };
    expect(completeUsage(reported, { input: () => 999, output: 30 })).toEqual({ tokens: reported, estimated: false });
  });
});

describe('RelayedOutput', () => {
  it('decodes kept Chat events with the provider codec only when asked: text, tool names and arguments', async () => {
    const relayed = new RelayedOutput(CODECS['openai-chat']);
    const chunk = (delta: unknown) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: null }] });
    relayed.addEvent(chunk({ role: 'assistant', content: '' }));
    relayed.addEvent(chunk({ content: 'The answer' }));
    relayed.addEvent(chunk({ content: ' is 42.' }));
    relayed.addEvent(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }] }));
    relayed.addEvent(chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }));
    expect((await relayed.count(countTokens)).tokens).toBe(countTokens('The answer is 42.lookup{"q":"x"}'));
  });

  it('decodes kept Anthropic Messages events (a stream cut before message_delta carried its output count)', async () => {
    const relayed = new RelayedOutput(CODECS['anthropic-messages']);
    relayed.addEvent(JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 } } }));
    relayed.addEvent(JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
    relayed.addEvent(JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Counting: one, two,' } }));
    relayed.addEvent(JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' three' } }));
    expect((await relayed.count(countTokens)).tokens).toBe(countTokens('Counting: one, two, three'));
  });

  it('keeps a translated stream\'s generated text parts', async () => {
    const relayed = new RelayedOutput(null);
    relayed.addPart({ type: 'text-start', index: 0 });
    relayed.addPart({ type: 'reasoning-delta', index: 0, delta: 'thinking it over' });
    relayed.addPart({ type: 'text-delta', index: 1, delta: 'Done.' });
    relayed.addPart({ type: 'usage', usage: { inputTokens: 3 } });
    expect((await relayed.count(countTokens)).tokens).toBe(countTokens('thinking it overDone.'));
  });

  it('a stream cut inside an event the decoder refuses keeps what it decoded before', async () => {
    const relayed = new RelayedOutput(CODECS['openai-chat']);
    relayed.addEvent(JSON.stringify({ choices: [{ index: 0, delta: { content: 'kept text' } }] }));
    relayed.addEvent('{"choices":[{"delta":');
    expect((await relayed.count(countTokens)).tokens).toBe(countTokens('kept text'));
  });

  it('reads a Gemini JSON-array stream relayed as bytes, cut inside an element, for its text and the usage seen', async () => {
    const relayed = new RelayedOutput(CODECS['google-genai']);
    const element = (text: string) => JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 2, totalTokenCount: 14 } });
    const whole = `[${element('One {brace} "two"')},\r\n${element(' three')},\r\n${element(' never')}`;
    relayed.addChunk(Buffer.from(whole.slice(0, whole.length - 20)));
    const counted = await relayed.count(countTokens);
    expect(counted.tokens).toBe(countTokens('One {brace} "two" three'));
    expect(counted.usage).toMatchObject({ inputTokens: 12 });
  });

  it('reads Bedrock event-stream frames relayed as bytes, split anywhere and cut inside a frame', async () => {
    const relayed = new RelayedOutput(CODECS['bedrock-converse']);
    const frames = Buffer.concat([
      encodeEventFrame('messageStart', { role: 'assistant' }),
      encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Bedrock says' } }),
      encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' hello' } }),
      encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' and more' } }),
    ]);
    const cut = frames.subarray(0, frames.length - 10);
    relayed.addChunk(cut.subarray(0, 37));
    relayed.addChunk(cut.subarray(37));
    expect((await relayed.count(countTokens)).tokens).toBe(countTokens('Bedrock says hello'));
  });
});

describe('jsonArrayElements', () => {
  it('splits complete top-level objects, braces and quotes inside strings included', () => {
    expect(jsonArrayElements('[{"a":"}{\\"x"},{"b":[{"c":1}]},{"d":')).toEqual(['{"a":"}{\\"x"}', '{"b":[{"c":1}]}']);
  });
});
