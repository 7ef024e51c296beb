// Usage read on the side of the two same-format streams that are not SSE (docs/prompt-cache.md):
// Bedrock ConverseStream's binary frames and GenAI's JSON array (what another gw relays for a
// client that did not ask for alt=sse), cut at odd places, with the cache counts in them. The
// bytes pass unchanged.
import { describe, expect, it } from 'vitest';
import { bedrockConverseCodec } from '../../src/formats/bedrock-converse/index.js';
import { concatFrames, encodeEventFrame } from '../../src/formats/bedrock-converse/event-stream-frames.js';
import { googleGenAiCodec } from '../../src/formats/google-genai/index.js';
import type { Usage } from '../../src/canonical/usage.js';
import { tapArrayUsage } from '../../src/pipeline/relay/tap-array-usage.js';
import { tapFrameUsage } from '../../src/pipeline/relay/tap-frame-usage.js';

async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

async function drain(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const out: Uint8Array[] = [];
  for await (const chunk of stream) out.push(chunk);
  return Buffer.concat(out);
}

describe('tapFrameUsage (Bedrock ConverseStream)', () => {
  it.each([1, 7, 4096])('frames cut every %i bytes: the metadata frame\'s cache reads and writes, the bytes unchanged', async (size) => {
    const bytes = concatFrames([
      encodeEventFrame('messageStart', { role: 'assistant' }),
      encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } }),
      encodeEventFrame('messageStop', { stopReason: 'end_turn' }),
      encodeEventFrame('metadata', { usage: { inputTokens: 100, cacheReadInputTokens: 3_000, cacheWriteInputTokens: 500, outputTokens: 10, totalTokens: 3_610 }, metrics: { latencyMs: 1 } }),
    ]);
    let usage: Usage | undefined;
    const relayed = await drain(tapFrameUsage(pieces(bytes, size), bedrockConverseCodec, (found) => { usage = found; }));
    expect(relayed.equals(Buffer.from(bytes))).toBe(true);
    expect(usage).toEqual({ inputTokens: 3_600, outputTokens: 10, cachedReadTokens: 3_000, cacheWriteTokens: 500, totalTokens: 3_610 });
  });
});

describe('tapArrayUsage (GenAI without alt=sse)', () => {
  const elements = [
    { candidates: [{ content: { role: 'model', parts: [{ text: 'a "quoted" {brace} [bracket] \\ é answer' }] }, index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 } },
    { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 5_000, cachedContentTokenCount: 4_000, candidatesTokenCount: 20, totalTokenCount: 5_020 } },
  ];
  const bytes = Buffer.from(`[${elements.map((element) => JSON.stringify(element)).join(',\r\n')}]`);

  it.each([1, 3, 13, 100_000])('cut every %i bytes (inside strings, escapes and multi-byte characters): the last element\'s usage', async (size) => {
    let usage: Usage | undefined;
    const relayed = await drain(tapArrayUsage(pieces(bytes, size), googleGenAiCodec, (found) => { usage = found; }));
    expect(relayed.equals(bytes)).toBe(true);
    expect(usage).toMatchObject({ inputTokens: 5_000, outputTokens: 20, cachedReadTokens: 4_000, totalTokens: 5_020 });
  });
});
