// Recorded wire fixtures → canonical (compared with golden JSON) → wire again.
// UPDATE_GOLDEN=1 rewrites the golden files; review their diff before committing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodecContext } from '../../../src/canonical/codec.js';
import type { StreamPart } from '../../../src/canonical/response.js';
import { googleGenAiCodec } from '../../../src/formats/google-genai/index.js';
import { SseDecoder } from '../../../src/streaming/sse-decoder.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats/google-genai');
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
  const decoder = googleGenAiCodec.createStreamDecoder();
  return [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
}

describe('google-genai requests', () => {
  for (const scenario of ['request-basic', 'request-tools', 'request-images']) {
    it(`${scenario}: decodes to the golden canonical request and re-encodes to the golden wire body`, () => {
      const decoded = googleGenAiCodec.decodeRequest(readJson(`${scenario}.json`), { model: 'gemini-2.5-flash', stream: false });
      expectGolden(`${scenario}.canonical.json`, decoded);
      expectGolden(`${scenario}.wire.json`, googleGenAiCodec.encodeRequest(decoded.value));
    });
  }

  it('matches function responses without ids to their calls by name, in order, and keeps the signature', () => {
    const { value } = googleGenAiCodec.decodeRequest(readJson('request-tools.json'), { model: 'm', stream: false });
    const assistant = value.messages[1]!;
    const tool = value.messages[2]!;
    expect(assistant.content.map((part) => part.type)).toEqual(['reasoning', 'tool-call', 'tool-call']);
    const callIds = assistant.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
    expect(tool.role === 'tool' && tool.content.map((part) => part.toolCallId)).toEqual(callIds);
    const wire = googleGenAiCodec.encodeRequest(value).value as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
    expect(wire.contents[1]!.parts[0]!.thoughtSignature).toBe('c2lnLWJvc3Rvbg==');
  });
});

describe('google-genai responses', () => {
  for (const scenario of ['response-basic', 'response-parallel-tools', 'response-reasoning-cache']) {
    it(`${scenario}: decodes to the golden canonical response and re-encodes`, () => {
      const decoded = googleGenAiCodec.decodeResponse(readJson(`${scenario}.json`));
      expectGolden(`${scenario}.canonical.json`, decoded);
      expectGolden(`${scenario}.wire.json`, googleGenAiCodec.encodeResponse(decoded.value, createContext()));
    });
  }

  it('normalises usage: prompt includes cached tokens, output includes thoughts', () => {
    const { value } = googleGenAiCodec.decodeResponse(readJson('response-reasoning-cache.json'));
    expect(value.usage).toEqual({ inputTokens: 2100, cachedReadTokens: 2048, outputTokens: 132, reasoningTokens: 120, totalTokens: 2232 });
    expect(value.finishReason).toEqual({ unified: 'length', raw: 'MAX_TOKENS' });
  });
});

describe('google-genai streams', () => {
  for (const scenario of ['stream-basic', 'stream-tools-reasoning', 'stream-error']) {
    it(`${scenario}: decodes to the golden parts`, () => {
      expectGolden(`${scenario}.parts.json`, decodeStream(`${scenario}.sse`));
    });
  }

  it('emits whole tool calls (start, one delta, end) and a tool-calls finish with usage', () => {
    const parts = decodeStream('stream-tools-reasoning.sse');
    const calls = parts.filter((part) => part.type === 'tool-call-delta');
    expect(calls.map((part) => part.type === 'tool-call-delta' && JSON.parse(part.argumentsDelta))).toEqual([{ city: 'Boston' }, { city: 'Paris' }]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'STOP' }, usage: { outputTokens: 50, reasoningTokens: 30 } });
  });

  it('turns a mid-stream error chunk into an error part and nothing after it', () => {
    const parts = decodeStream('stream-error.sse');
    expect(parts.at(-1)).toEqual({ type: 'error', error: { status: 503, kind: 'overloaded', message: 'The model is overloaded. Please try again later.' } });
  });
});

describe('google-genai errors', () => {
  it('decodes the status name and the RetryInfo delay', () => {
    expect(googleGenAiCodec.decodeError(400, readJson('error-400.json'))).toEqual({ status: 400, kind: 'invalid_request', message: 'API key not valid. Please pass a valid API key.' });
    expect(googleGenAiCodec.decodeError(429, readJson('error-429.json'))).toEqual({ status: 429, kind: 'rate_limit', message: 'You exceeded your current quota.', retryAfterSeconds: 17 });
  });

  it('falls back to the HTTP status for a body that is not Google-shaped', () => {
    expect(googleGenAiCodec.decodeError(503, '<html>')).toMatchObject({ status: 503, kind: 'overloaded' });
  });
});
