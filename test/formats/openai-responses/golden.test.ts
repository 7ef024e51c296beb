// Recorded wire fixtures → canonical (compared with golden JSON) → wire again.
// UPDATE_GOLDEN=1 rewrites the golden files; review their diff before committing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodecContext } from '../../../src/canonical/codec.js';
import type { StreamPart } from '../../../src/canonical/response.js';
import { openAiResponsesCodec } from '../../../src/formats/openai-responses/index.js';
import { SseDecoder } from '../../../src/streaming/sse-decoder.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats/openai-responses');
const GOLDEN = join(FIXTURES, 'golden');

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
}

function expectGolden(name: string, actual: unknown): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(path)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
  }
  expect(JSON.parse(JSON.stringify(actual))).toEqual(JSON.parse(readFileSync(path, 'utf8')));
}

function createContext(): CodecContext {
  let count = 0;
  return { ids: () => `id${++count}`, now: () => 1_700_000_000 };
}

function decodeStream(name: string): StreamPart[] {
  const events = new SseDecoder().push(readFileSync(join(FIXTURES, name)));
  const decoder = openAiResponsesCodec.createStreamDecoder();
  return [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
}


describe('openai-responses requests', () => {
  for (const scenario of ['request-basic', 'request-codex', 'request-images']) {
    it(`${scenario}: decodes to the golden canonical request and re-encodes to the golden wire body`, () => {
      const decoded = openAiResponsesCodec.decodeRequest(readJson(`${scenario}.json`), { model: 'gpt-5', stream: scenario === 'request-codex' });
      expectGolden(`${scenario}.canonical.json`, decoded);
      expectGolden(`${scenario}.wire.json`, openAiResponsesCodec.encodeRequest(decoded.value));
    });
  }

  it('flattens namespace tools and restores them on encode; encrypted reasoning is carried', () => {
    const { value, warnings } = openAiResponsesCodec.decodeRequest(readJson('request-codex.json'), { model: 'gpt-5', stream: true });
    expect(value.tools?.map((tool) => tool.name)).toEqual(['shell', 'mcp__docs__search']);
    expect(warnings.map((warning) => warning.code)).toContain('mapped:tool:namespace');
    expect(value.messages[1]).toMatchObject({ role: 'assistant', content: [{ type: 'reasoning', encrypted: 'gAAAAABencrypted==', origin: 'openai' }, { type: 'tool-call', id: 'call_1' }, { type: 'tool-call', name: 'mcp__docs__search' }] });
    expect(value.messages[2]).toMatchObject({ role: 'tool', content: [{ toolCallId: 'call_1', toolName: 'shell' }, { toolCallId: 'call_2', toolName: 'mcp__docs__search' }] });
    const wire = openAiResponsesCodec.encodeRequest(value).value as { tools: Array<Record<string, unknown>>; input: Array<Record<string, unknown>> };
    expect(wire.tools[1]).toMatchObject({ type: 'namespace', name: 'mcp__docs', tools: [{ type: 'function', name: 'search' }] });
    expect(wire.input.find((item) => item.call_id === 'call_2')).toMatchObject({ type: 'function_call', namespace: 'mcp__docs', name: 'search' });
  });

  it('rejects a wrong type with the exact param', () => {
    expect(() => openAiResponsesCodec.decodeRequest({ input: [{ role: 'user', content: 5 }] }, { model: 'm', stream: false }))
      .toThrow(expect.objectContaining({ code: 'GW_ERR_REQUEST_INVALID', param: 'input[0].content' }));
    expect(() => openAiResponsesCodec.decodeRequest({ input: 'x', temperature: 'hot' }, { model: 'm', stream: false }))
      .toThrow(expect.objectContaining({ param: 'temperature' }));
  });
});

describe('openai-responses responses', () => {
  for (const scenario of ['response-basic', 'response-tools-reasoning', 'response-incomplete']) {
    it(`${scenario}: decodes to the golden canonical response and re-encodes`, () => {
      const decoded = openAiResponsesCodec.decodeResponse(readJson(`${scenario}.json`));
      expectGolden(`${scenario}.canonical.json`, decoded);
      expectGolden(`${scenario}.wire.json`, openAiResponsesCodec.encodeResponse(decoded.value, createContext()));
    });
  }

  it('keeps cached and reasoning tokens inside input and output counts', () => {
    const { value } = openAiResponsesCodec.decodeResponse(readJson('response-tools-reasoning.json'));
    expect(value.usage).toEqual({ inputTokens: 2200, cachedReadTokens: 2048, outputTokens: 180, reasoningTokens: 128, totalTokens: 2380 });
    expect(value.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });
});

describe('openai-responses streams', () => {
  for (const scenario of ['stream-text', 'stream-tools-reasoning', 'stream-error']) {
    it(`${scenario}: decodes to the golden parts`, () => {
      expectGolden(`${scenario}.parts.json`, decodeStream(`${scenario}.sse`));
    });
  }

  it('reassembles interleaved argument deltas of parallel calls', () => {
    const parts = decodeStream('stream-tools-reasoning.sse');
    const args = new Map<number, string>();
    for (const part of parts) if (part.type === 'tool-call-delta') args.set(part.index, (args.get(part.index) ?? '') + part.argumentsDelta);
    expect([...args.values()].map((text) => JSON.parse(text))).toEqual([{ city: 'Boston' }, { city: 'Paris' }]);
    expect(parts).toContainEqual({ type: 'reasoning-opaque', index: 0, encrypted: 'gAAAAABstream==' });
  });

  it('reports a stream cut before response.completed as an error', () => {
    const decoder = openAiResponsesCodec.createStreamDecoder();
    decoder.push({ data: '{"type":"response.created","response":{"id":"r","model":"m"}}' });
    expect(decoder.end()).toEqual([{ type: 'error', error: expect.objectContaining({ status: 502 }) }]);
  });
});

describe('openai-responses errors', () => {
  it('decodes by status and keeps the message', () => {
    expect(openAiResponsesCodec.decodeError(401, readJson('error-401.json'))).toMatchObject({ status: 401, kind: 'authentication' });
    expect(openAiResponsesCodec.decodeError(429, { error: { message: 'slow', type: 'rate_limit_error' } })).toEqual({ status: 429, kind: 'rate_limit', message: 'slow' });
  });
});
