// Anthropic batch results read as they pass: however the download is cut into chunks (inside a
// line, inside a multi-byte character), the usage per model is the sum over the succeeded lines.
import { describe, expect, it } from 'vitest';
import { BatchResultsUsage } from '../../src/pipeline/relay/batch-results-usage.js';

const line = (model: string, usage: Record<string, number>, type = 'succeeded') =>
  `${JSON.stringify({ custom_id: `c-${model}`, result: type === 'succeeded' ? { type, message: { model, role: 'assistant', content: [{ type: 'text', text: 'héllo ✓' }], usage } } : { type } })}\n`;

const results = line('claude-a', { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 7 })
  + line('claude-b', { input_tokens: 100, output_tokens: 50 })
  + line('claude-a', { input_tokens: 1, output_tokens: 2 })
  + line('claude-a', {}, 'errored')
  + line('claude-b', {}, 'expired').trimEnd(); // no newline after the last line

function read(chunkSize: number): BatchResultsUsage {
  const bytes = Buffer.from(results);
  const reader = new BatchResultsUsage();
  for (let at = 0; at < bytes.length; at += chunkSize) reader.push(bytes.subarray(at, at + chunkSize));
  reader.end();
  return reader;
}

describe('BatchResultsUsage', () => {
  const whole = read(1 << 20);

  it('sums each model\'s succeeded results and skips the others', () => {
    expect([...whole.byModel.keys()].sort()).toEqual(['claude-a', 'claude-b']);
    expect(whole.byModel.get('claude-a')).toMatchObject({ outputTokens: 7, cachedReadTokens: 7 });
    expect(whole.byModel.get('claude-b')).toMatchObject({ outputTokens: 50 });
  });

  it.each([1, 2, 3, 7, 64, 333])('gives the same sums when the download comes in %i-byte chunks', (size) => {
    expect(Object.fromEntries(read(size).byModel)).toEqual(Object.fromEntries(whole.byModel));
  });
});
