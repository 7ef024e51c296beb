// The same-format relay through the codec it is given: the client's stream error event, its
// terminal event and its usage, with the provider's bytes otherwise passed through untouched.
import { describe, expect, it } from 'vitest';
import type { DialectCodec } from '../../src/canonical/codec.js';
import type { Usage } from '../../src/canonical/usage.js';
import { GatewayError } from '../../src/errors.js';
import { codecFor } from '../../src/formats/codec-registry.js';
import { readJsonBody } from '../../src/pipeline/relay/read-json-reply.js';
import { relayStream, type RelayCodecChoice } from '../../src/pipeline/relay/relay-same-dialect.js';
import { ClientCancel } from '../../src/upstream/cancel-signal.js';

const RESPONSES_EVENTS = [
  'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress","usage":null}}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":1,"delta":"Hi"}\n\n',
  'event: response.completed\ndata: {"type":"response.completed","sequence_number":2,"response":{"id":"resp_1","status":"completed","usage":{"input_tokens":4,"output_tokens":2,"total_tokens":6}}}\n\n',
];

async function* provider(chunks: string[], failWith?: Error): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield Buffer.from(chunk);
  if (failWith) throw failWith;
}

async function relay(chunks: string[], choice: RelayCodecChoice, failWith?: Error): Promise<{ text: string; usage: Usage | undefined; failure: GatewayError | null; finished: boolean }> {
  let done: { usage: Usage | undefined; failure: GatewayError | null } = { usage: undefined, failure: null };
  let finished = false;
  let text = '';
  const stream = relayStream(provider(chunks, failWith), {
    ...choice, hideUsageChunk: false, signal: new ClientCancel(),
    onDone: (result) => { done = result; },
    onFinished: () => { finished = true; },
  });
  for await (const piece of stream) text += typeof piece === 'string' ? piece : Buffer.from(piece).toString('utf8');
  return { text, ...done, finished };
}

describe('relayStream with the client codec', () => {
  const responses: DialectCodec = codecFor('openai-responses');

  it('a Responses stream cut short ends with error + response.failed numbered after the events sent', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const result = await relay(RESPONSES_EVENTS.slice(0, 2), { codec: responses }, reset);
    expect(result.text.startsWith(RESPONSES_EVENTS[0]! + RESPONSES_EVENTS[1]!)).toBe(true);
    const tail = result.text.slice((RESPONSES_EVENTS[0]! + RESPONSES_EVENTS[1]!).length);
    expect(tail).toMatch(/^event: error\ndata: \{"type":"error","code":"upstream_unreachable",.*"sequence_number":2\}\n\nevent: response\.failed\ndata: \{"type":"response\.failed","response":\{"object":"response","status":"failed","error":\{"code":"upstream_unreachable",.*"sequence_number":3\}\n\n$/s);
    expect(tail).not.toContain('data: {"error"');
    expect(result.failure?.code).toBe('GW_ERR_UPSTREAM_UNREACHABLE');
    expect(result.finished).toBe(false);
  });

  it('a complete Responses stream: bytes unchanged, usage from response.completed, finished on it', async () => {
    const result = await relay(RESPONSES_EVENTS, { codec: responses });
    expect(result.text).toBe(RESPONSES_EVENTS.join(''));
    expect(result.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6, cachedReadTokens: undefined, reasoningTokens: undefined });
    expect(result.finished).toBe(true);
    expect(result.failure).toBeNull();
  });

  it('the older `dialect` form still means the family codec (Chat for openai)', async () => {
    const result = await relay(['data: {"choices":[{"delta":{"content":"x"}}]}\n\n'], { dialect: 'openai' }, new Error('gone'));
    expect(result.text).toMatch(/data: \{"error":\{"message":"The provider could not be reached\.","type":"api_error","param":null,"code":"upstream_unreachable"\}\}\n\n$/);
  });

  it('Anthropic: usage merged from message_start and message_delta, finished on message_stop', async () => {
    const events = [
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ];
    const result = await relay(events, { codec: codecFor('anthropic-messages') });
    expect(result.usage).toMatchObject({ inputTokens: 15, outputTokens: 7, cachedReadTokens: 5, totalTokens: 22 });
    expect(result.finished).toBe(true);
  });
});

describe('readJsonBody', () => {
  it('reads usage with the codec given (Responses: input/output tokens) and returns the bytes unchanged', async () => {
    const body = '{"id":"resp_1","usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}';
    const json = await readJsonBody(provider([body]), codecFor('openai-responses'));
    expect(json.bytes.toString('utf8')).toBe(body);
    expect(json.usage).toMatchObject({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });

  it('still takes a wire dialect (Google: usageMetadata)', async () => {
    const json = await readJsonBody(provider(['{"usageMetadata":{"promptTokenCount":2,"candidatesTokenCount":3,"totalTokenCount":5}}']), 'google');
    expect(json.usage).toMatchObject({ inputTokens: 2, outputTokens: 3, totalTokens: 5 });
  });
});
