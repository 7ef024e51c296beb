import { describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { dataOf, mock, readEvents, readJson } from './read-mock-response.js';

const body = { model: 'mock/echo', max_tokens: 100, system: [{ type: 'text', text: 'be brief' }], messages: [{ role: 'user', content: 'hello there' }] };
const tools = [{ name: 'read_file', description: 'read', input_schema: { type: 'object', properties: {} } }];

describe('mock Anthropic messages', () => {
  it('answers JSON with the echoed text and usage', async () => {
    const message = (await readJson(mock({ operation: 'messages', model: 'mock/echo', body, stream: false }))) as unknown as Anthropic.Message;
    expect(message).toMatchObject({ id: 'msg_fixed', type: 'message', role: 'assistant', model: 'mock/echo', stop_reason: 'end_turn', stop_sequence: null });
    expect(message.content).toEqual([{ type: 'text', text: 'mock reply: hello there' }]);
    expect(message.usage).toMatchObject({ input_tokens: Math.ceil('be briefhello there'.length / 4), output_tokens: 6 });
  });

  it('streams the full event sequence with event names matching payload types', async () => {
    const events = await readEvents(mock({ operation: 'messages', model: 'mock/echo', body: { ...body, stream: true }, stream: true }));
    const payloads = dataOf(events);
    expect(events.map((event) => event.event)).toEqual(payloads.map((payload) => payload.type));
    const types = payloads.map((payload) => payload.type);
    expect(types.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(events.some((event) => event.data === '[DONE]')).toBe(false);
    const text = payloads
      .filter((payload) => payload.type === 'content_block_delta')
      .map((payload) => (payload as unknown as Anthropic.RawContentBlockDeltaEvent).delta)
      .map((delta) => (delta.type === 'text_delta' ? delta.text : ''))
      .join('');
    expect(text).toBe('mock reply: hello there');
    const start = payloads[0] as unknown as Anthropic.RawMessageStartEvent;
    expect(start.message.model).toBe('mock/echo');
    const delta = payloads.at(-2) as unknown as Anthropic.RawMessageDeltaEvent;
    expect(delta.delta.stop_reason).toBe('end_turn');
    expect(delta.usage.output_tokens).toBe(6);
  });

  it('calls the first tool with {} and stop_reason tool_use', async () => {
    const message = (await readJson(mock({ operation: 'messages', model: 'mock/echo', body: { ...body, tools }, stream: false }))) as unknown as Anthropic.Message;
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([{ type: 'tool_use', id: 'toolu_fixed', name: 'read_file', input: {} }]);
  });

  it('streams a tool call as input_json_delta pieces that join to {}', async () => {
    const payloads = dataOf(await readEvents(mock({ operation: 'messages', model: 'mock/echo', body: { ...body, tools }, stream: true })));
    expect(payloads[1]).toMatchObject({ type: 'content_block_start', content_block: { type: 'tool_use', name: 'read_file', input: {} } });
    const json = payloads
      .map((payload) => payload.delta as { type?: string; partial_json?: string } | undefined)
      .filter((delta) => delta?.type === 'input_json_delta')
      .map((delta) => delta?.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({});
    expect(payloads.find((payload) => payload.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('answers with text when the last message is a tool result', async () => {
    const messages = [
      ...body.messages,
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read_file', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'file body' }] },
    ];
    const message = (await readJson(mock({ operation: 'messages', model: 'mock/echo', body: { ...body, tools, messages }, stream: false }))) as unknown as Anthropic.Message;
    expect(message.content).toEqual([{ type: 'text', text: 'mock reply: hello there' }]);
  });

  it('fails with Anthropic error shape, request-id and retry-after', async () => {
    const response = mock({ operation: 'messages', model: 'mock/error-529', body, stream: true });
    expect(response.status).toBe(529);
    expect(response.headers['request-id']).toBe('req_fixed');
    expect(await readJson(response)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: expect.any(String) }, request_id: 'req_fixed' });
    const limited = mock({ operation: 'messages', model: 'mock/error-429', body, stream: false });
    expect(limited.headers['retry-after']).toBe('1');
    expect(await readJson(limited)).toMatchObject({ error: { type: 'rate_limit_error' } });
  });

  it('counts tokens', async () => {
    const { max_tokens: _ignored, ...countBody } = body;
    expect(await readJson(mock({ operation: 'count_tokens', model: 'mock/echo', body: countBody, stream: false }))).toEqual({ input_tokens: 5 });
  });
});
