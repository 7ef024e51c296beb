// The read-on after a hang-up (issue 36): the upstream signal follows the client's until the
// answer is complete; then a hang-up lets the relay read the rest for usage, within its bounds.
import { describe, expect, it } from 'vitest';
import { ClientCancel } from '../../src/upstream/cancel-signal.js';
import { answerEndTest, DRAIN_MAX_BYTES, drainAfterAnswer, endsAnswer } from '../../src/pipeline/relay/drain-after-answer.js';
import { DrainCancel } from '../../src/pipeline/drain-cancel.js';

async function* items(values: string[]): AsyncGenerator<string> {
  for (const value of values) yield value;
}

/** Reads `count` items as a client would, then leaves (the consumer's early return). */
async function readThenLeave(source: AsyncIterable<string>, count: number, onLeave: () => void): Promise<string[]> {
  const seen: string[] = [];
  for await (const value of source) {
    seen.push(value);
    if (seen.length === count) { onLeave(); break; }
  }
  return seen;
}

describe('DrainCancel', () => {
  it('follows the client while the answer runs: a hang-up stops the provider at once', () => {
    const client = new ClientCancel();
    const upstream = new DrainCancel(client);
    client.abort(new Error('client disconnected'));
    expect(upstream.aborted).toBe(true);
    expect(upstream.heldAtHangUp).toBe(false);
  });

  it('once the answer is complete, a hang-up leaves the provider running until the drain is over', () => {
    const client = new ClientCancel();
    const upstream = new DrainCancel(client);
    upstream.holdOpen();
    client.abort(new Error('client disconnected'));
    expect(upstream.aborted).toBe(false);
    expect(upstream.heldAtHangUp).toBe(true);
    upstream.finish();
    expect(upstream.aborted).toBe(true);
  });
});

describe('drainAfterAnswer', () => {
  it('a client gone after the answer: the rest is read for usage, nothing more is handed on', async () => {
    const client = new ClientCancel();
    const cancel = new DrainCancel(client);
    const read: string[] = [];
    const source = drainAfterAnswer(items(['text', 'finish', 'usage', 'done']), { cancel, read: (value) => { read.push(value); return value.length; } });
    const seen = await readThenLeave(source, 2, () => { cancel.holdOpen(); client.abort(new Error('gone')); });
    expect(seen).toEqual(['text', 'finish']);
    expect(read).toEqual(['usage', 'done']);
    expect(cancel.aborted).toBe(true);
  });

  it('a client gone mid-answer: nothing is read on', async () => {
    const client = new ClientCancel();
    const cancel = new DrainCancel(client);
    const read: string[] = [];
    const source = drainAfterAnswer(items(['text', 'more', 'finish', 'usage']), { cancel, read: (value) => { read.push(value); return value.length; } });
    await readThenLeave(source, 1, () => client.abort(new Error('gone')));
    expect(read).toEqual([]);
    expect(cancel.aborted).toBe(true);
  });

  it('stops reading past DRAIN_MAX_BYTES', async () => {
    const client = new ClientCancel();
    const cancel = new DrainCancel(client);
    const big = 'x'.repeat(4096);
    let bytes = 0;
    const source = drainAfterAnswer(items(['finish', ...Array.from({ length: 100 }, () => big)]), { cancel, read: (value) => { bytes += value.length; return value.length; } });
    await readThenLeave(source, 1, () => { cancel.holdOpen(); client.abort(new Error('gone')); });
    expect(bytes).toBeGreaterThan(DRAIN_MAX_BYTES);
    expect(bytes).toBeLessThanOrEqual(DRAIN_MAX_BYTES + big.length);
  });
});

describe('endsAnswer', () => {
  it.each([
    ['Chat finish_reason', { data: '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}' }, true],
    ['Chat delta', { data: '{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}' }, false],
    ['Anthropic message_delta', { event: 'message_delta', data: '{}' }, true],
    ['Anthropic content_block_delta', { event: 'content_block_delta', data: '{}' }, false],
    ['Responses output_text.done', { event: 'response.output_text.done', data: '{}' }, true],
    ['GenAI finishReason', { data: '{"candidates":[{"finishReason":"STOP"}]}' }, true],
    ['Bedrock messageStop', { event: 'messageStop', data: '{"stopReason":"end_turn"}' }, true],
  ])('%s', (_name, event, ends) => {
    expect(endsAnswer(event)).toBe(ends);
  });

  it('each dialect\'s own test agrees with the general one on its own events', () => {
    expect(answerEndTest('openai-chat')({ data: '{"choices":[{"finish_reason":"length"}]}' })).toBe(true);
    expect(answerEndTest('openai-chat')({ data: '{"choices":[{"finish_reason":null}]}' })).toBe(false);
    expect(answerEndTest('google-genai')({ data: '{"candidates":[{"finishReason":"STOP"}]}' })).toBe(true);
    expect(answerEndTest('anthropic-messages')({ event: 'message_delta', data: '{}' })).toBe(true);
    expect(answerEndTest('openai-responses')({ event: 'response.output_text.delta', data: '{}' })).toBe(false);
    expect(answerEndTest('bedrock-converse')({ event: 'messageStop', data: '{}' })).toBe(true);
  });
});
