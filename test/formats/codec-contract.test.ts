// The contract every DialectCodec keeps beyond translation (src/canonical/codec.ts): its error
// body, its in-stream error event, where its responses and stream events carry usage, and which
// event ends a complete stream. Usage and terminal events are read from recorded fixture streams.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DialectCodec, WireErrorInput, WireEvent } from '../../src/canonical/codec.js';
import type { Usage } from '../../src/canonical/usage.js';
import { GatewayError } from '../../src/errors.js';
import { CODECS, codecFor, codecForCall, codecForDialect, codecForOperation } from '../../src/formats/codec-registry.js';
import { decodeBedrockEventStream } from '../../src/providers/bedrock/event-stream.js';
import { parseSse } from './codec-support.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/formats');
const read = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');

function fixtureEvents(path: string): WireEvent[] {
  return path.endsWith('.json') ? JSON.parse(read(path)) as WireEvent[] : parseSse(read(path));
}

async function bedrockFrames(bytes: Uint8Array): Promise<WireEvent[]> {
  const events: WireEvent[] = [];
  for await (const event of decodeBedrockEventStream((async function* () { yield bytes; })())) events.push(event);
  return events;
}

/** A gw refusal (GatewayError has the WireErrorInput shape) and a provider's error re-encoded from canonical form. */
const GW_ERROR = new GatewayError('GW_ERR_POLICY_RATE_LIMITED', { message: 'Slow down.', headers: { 'retry-after': '7' } });
const PROVIDER_ERROR: WireErrorInput = { status: 529, kind: 'overloaded', message: 'Overloaded', retryAfterSeconds: 3 };

interface Case {
  codec: DialectCodec;
  /** A complete recorded stream of this dialect, and the usage it reports. */
  stream: string;
  streamUsage: Usage;
  /** A recorded JSON response, and its usage. */
  response: string;
  responseUsage: Usage;
  gwBody: unknown;
  providerBody: unknown;
  /** The in-stream error for GW_ERROR (text dialects). */
  gwStreamError?: string;
}

const OPENAI_GW_BODY = { error: { message: 'Slow down.', type: 'rate_limit_error', param: null, code: 'policy_rate_limited' } };
const OPENAI_PROVIDER_BODY = { error: { message: 'Overloaded', type: 'server_error', param: null, code: null } };

const CASES: Case[] = [
  {
    codec: CODECS['openai-chat'], stream: 'openai-chat/streaming.sse',
    streamUsage: { inputTokens: 2006, outputTokens: 9, cachedReadTokens: 1920, reasoningTokens: 0, totalTokens: 2015 },
    response: 'openai-chat/cache-usage.response.json',
    responseUsage: { inputTokens: 2006, outputTokens: 300, cachedReadTokens: 1920, reasoningTokens: 0, totalTokens: 2306 },
    gwBody: OPENAI_GW_BODY, providerBody: OPENAI_PROVIDER_BODY,
    gwStreamError: `data: ${JSON.stringify(OPENAI_GW_BODY)}\n\n`,
  },
  {
    codec: CODECS['openai-completions'], stream: 'openai-completions/streaming.sse',
    streamUsage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
    response: 'openai-completions/basic.response.json', responseUsage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
    gwBody: OPENAI_GW_BODY, providerBody: OPENAI_PROVIDER_BODY,
    gwStreamError: `data: ${JSON.stringify(OPENAI_GW_BODY)}\n\n`,
  },
  {
    codec: CODECS['openai-responses'], stream: 'openai-responses/stream-text.sse',
    streamUsage: { inputTokens: 37, outputTokens: 11, cachedReadTokens: 0, reasoningTokens: 0, totalTokens: 48 },
    response: 'openai-responses/response-basic.json',
    responseUsage: { inputTokens: 36, outputTokens: 87, cachedReadTokens: 0, reasoningTokens: 0, totalTokens: 123 },
    gwBody: OPENAI_GW_BODY, providerBody: OPENAI_PROVIDER_BODY,
    gwStreamError: 'event: error\ndata: {"type":"error","code":"policy_rate_limited","message":"Slow down.","param":null,"sequence_number":0}\n\n'
      + 'event: response.failed\ndata: {"type":"response.failed","response":{"object":"response","status":"failed","error":{"code":"policy_rate_limited","message":"Slow down."},"incomplete_details":null,"output":[]},"sequence_number":1}\n\n',
  },
  {
    codec: CODECS['anthropic-messages'], stream: 'anthropic-messages/streaming.sse',
    // message_start's input (25 + 2000 cache reads) merged with message_delta's output.
    streamUsage: { inputTokens: 2025, outputTokens: 15, cachedReadTokens: 2000, cacheWriteTokens: 0, totalTokens: 2040 },
    response: 'anthropic-messages/basic.response.json',
    responseUsage: { inputTokens: 2095, outputTokens: 503, cachedReadTokens: 0, cacheWriteTokens: 0, totalTokens: 2598 },
    gwBody: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down.' } },
    providerBody: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    gwStreamError: 'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Slow down."}}\n\n',
  },
  {
    codec: CODECS['google-genai'], stream: 'google-genai/stream-basic.sse',
    streamUsage: { inputTokens: 8, outputTokens: 9, totalTokens: 17 },
    response: 'google-genai/response-reasoning-cache.json',
    responseUsage: { inputTokens: 2100, outputTokens: 132, cachedReadTokens: 2048, reasoningTokens: 120, totalTokens: 2232 },
    gwBody: { error: { code: 429, message: 'Slow down.', status: 'RESOURCE_EXHAUSTED' } },
    providerBody: { error: { code: 529, message: 'Overloaded', status: 'UNAVAILABLE' } },
    gwStreamError: 'data: {"error":{"code":429,"message":"Slow down.","status":"RESOURCE_EXHAUSTED"}}\r\n\r\n',
  },
  {
    codec: CODECS['bedrock-converse'], stream: 'bedrock-converse/reasoning.stream.json',
    streamUsage: { inputTokens: 70, outputTokens: 40, cachedReadTokens: 50, totalTokens: 110 },
    response: 'bedrock-converse/cache-usage.response.json',
    responseUsage: { inputTokens: 1512, outputTokens: 30, cachedReadTokens: 1200, cacheWriteTokens: 300, totalTokens: 1542 },
    gwBody: { message: 'Slow down.' }, providerBody: { message: 'Overloaded' },
  },
];

describe.each(CASES)('$codec.name', (testCase) => {
  const { codec } = testCase;

  it('encodeError: the dialect body, status and headers; a provider error gets retry-after from retryAfterSeconds', () => {
    const gw = codec.encodeError(GW_ERROR);
    expect(gw.status).toBe(429);
    expect(gw.body).toEqual(testCase.gwBody);
    expect(gw.headers['retry-after']).toBe('7');
    const provider = codec.encodeError(PROVIDER_ERROR);
    expect(provider.status).toBe(529);
    expect(provider.body).toEqual(testCase.providerBody);
    expect(provider.headers['retry-after']).toBe('3');
  });

  it('readUsage: the usage of a recorded JSON response', () => {
    expect(codec.readUsage(JSON.parse(read(testCase.response)))).toEqual(testCase.responseUsage);
    expect(codec.readUsage({})).toBeUndefined();
  });

  it('createStreamUsageReader: the usage a recorded stream reports, parsing only the events that carry it', () => {
    const reader = codec.createStreamUsageReader();
    const events = fixtureEvents(testCase.stream);
    const parsed = events.map((event) => reader.read(event.data));
    expect(reader.usage()).toEqual(testCase.streamUsage);
    // The substring pre-test: what can carry usage is parsed (and handed back), nothing else is.
    expect(parsed.map((value) => value !== undefined)).toEqual(events.map((event) => /"usage(Metadata)?"\s*:\s*\{/.test(event.data)));
    expect(reader.read('{"choices":[{"delta":{"content":"usage"}}],"usage":null,"usageMetadata":null}')).toBeUndefined();
    expect(reader.usage()).toEqual(testCase.streamUsage);
  });

  it('isTerminalEvent: of a complete recorded stream, only the last event', () => {
    const events = fixtureEvents(testCase.stream);
    expect(events.map((event) => codec.isTerminalEvent(event))).toEqual(events.map((_event, index) => index === events.length - 1));
  });

  it('encodeStreamError: the dialect in-stream error, which is no complete ending except for Responses (response.failed)', async () => {
    const encoded = codec.encodeStreamError(GW_ERROR);
    if (codec.streamFraming === 'aws-event-stream') {
      expect(encoded).toBeInstanceOf(Uint8Array);
      const frames = await bedrockFrames(encoded as Uint8Array);
      expect(frames).toEqual([{ event: 'throttlingException', data: JSON.stringify({ message: 'Slow down.' }) }]);
      expect(frames.some((event) => codec.isTerminalEvent(event))).toBe(false);
      return;
    }
    expect(encoded).toBe(testCase.gwStreamError);
    const terminal = parseSse(encoded as string).map((event) => codec.isTerminalEvent(event));
    expect(terminal.at(-1)).toBe(codec.name === 'openai-responses');
  });
});

describe('openai-responses encodeStreamError', () => {
  it('continues the sequence numbers of the events already sent, and names a provider error by its OpenAI type', () => {
    const events = parseSse(CODECS['openai-responses'].encodeStreamError(PROVIDER_ERROR, { eventsSent: 5 }) as string);
    expect(events.map((event) => event.event)).toEqual(['error', 'response.failed']);
    expect(events.map((event) => (JSON.parse(event.data) as { sequence_number: number }).sequence_number)).toEqual([5, 6]);
    expect(JSON.parse(events[1]!.data)).toMatchObject({ response: { status: 'failed', error: { code: 'server_error', message: 'Overloaded' } } });
  });
});

describe('codec registry', () => {
  it('finds a codec by name, by generation operation and by family', () => {
    expect(codecFor('google-genai').name).toBe('google-genai');
    expect(codecForOperation('responses.create')?.name).toBe('openai-responses');
    expect(codecForOperation('bedrock.converse_stream')?.name).toBe('bedrock-converse');
    expect(codecForOperation('embeddings')).toBeUndefined();
    expect(codecForOperation('toString')).toBeUndefined();
    expect(codecForDialect('operational').name).toBe('openai-chat');
    expect(codecForDialect('anthropic').name).toBe('anthropic-messages');
    expect(codecForCall('openai', 'responses.create').name).toBe('openai-responses');
    expect(codecForCall('openai', 'files.create').name).toBe('openai-chat');
  });
});
