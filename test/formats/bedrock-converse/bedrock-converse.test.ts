// Bedrock Converse codec: recorded fixtures with golden translations, the binary stream
// encoder read back by the provider's event-stream reader, a fast-check round trip, errors.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../src/canonical/codec.js';
import type { CanonicalRequest } from '../../../src/canonical/request.js';
import type { StreamPart } from '../../../src/canonical/response.js';
import { GatewayError } from '../../../src/errors.js';
import {
  bedrockConverseCodec as codec, decodeBedrockError, encodeBedrockError, encodeBedrockStreamError, isBinaryStreamEncoder,
} from '../../../src/formats/bedrock-converse/index.js';
import { decodeBedrockEventStream } from '../../../src/providers/bedrock/event-stream.js';
import { arbitraryBedrockRequest } from './arbitrary-request.js';

const dir = path.resolve(import.meta.dirname, '../../fixtures/formats/bedrock-converse');
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
const MODEL = 'anthropic.claude-sonnet-4-20250514-v1:0';
const context = { ids: () => 'id1', now: () => 1_700_000_000 };

async function readFrames(bytes: Uint8Array): Promise<WireEvent[]> {
  const events: WireEvent[] = [];
  async function* once(): AsyncGenerator<Uint8Array> { yield bytes; }
  for await (const event of decodeBedrockEventStream(once())) events.push(event);
  return events;
}

describe('requests', () => {
  for (const scenario of ['tools', 'images', 'reasoning']) {
    it(`${scenario}: decodes to the golden canonical request and encodes back to the same body`, () => {
      const wire = fixture(`${scenario}.request.json`);
      const decoded = codec.decodeRequest(wire, { model: MODEL, stream: false });
      expect(decoded).toEqual(fixture(`${scenario}.canonical.json`));
      const encoded = codec.encodeRequest(decoded.value);
      expect(encoded.value).toEqual(wire);
      expect(encoded.warnings).toEqual([]);
    });
  }

  it('refuses wrong types with the field path', () => {
    expect(() => codec.decodeRequest({ messages: [{ role: 'system', content: [] }] }, { model: MODEL, stream: false })).toThrow(/messages\[0\]\.role/);
    expect(() => codec.decodeRequest({ messages: [], inferenceConfig: { maxTokens: 'a lot' } }, { model: MODEL, stream: false })).toThrow(GatewayError);
    expect(() => codec.decodeRequest({ messages: [{ role: 'user', content: [{ image: { format: 'bmp', source: { bytes: '' } } }] }] }, { model: MODEL, stream: false }))
      .toThrow(/png, jpeg, gif or webp/);
  });

  it('warns for what Converse cannot carry: URL images, tool_choice none, JSON mode, effort, foreign reasoning', () => {
    const request: CanonicalRequest = {
      model: MODEL, system: [], stream: false, extensions: { openai: { logprobs: true } },
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://x/cat.png' } }, { type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'r', encrypted: 'enc', origin: 'openai' }, { type: 'text', text: 'ok' }] },
      ],
      tools: [{ type: 'function', name: 't', parameters: { type: 'object' } }], toolChoice: { type: 'none' },
      responseFormat: { type: 'json' }, reasoning: { effort: 'high' }, user: 'u1',
    };
    const { value, warnings } = codec.encodeRequest(request);
    expect(warnings.map((warning) => warning.code)).toEqual([
      'dropped:image', 'dropped:reasoning', 'dropped:tool_choice:none', 'dropped:extension:openai', 'dropped:reasoning_effort', 'dropped:response_format', 'dropped:user',
    ]);
    expect(value.messages).toEqual([{ role: 'user', content: [{ text: 'hi' }] }, { role: 'assistant', content: [{ text: 'ok' }] }]);
    expect(value.toolConfig).toEqual({ tools: [{ toolSpec: { name: 't', inputSchema: { json: { type: 'object' } } } }] });
  });

  it('round-trips any request Converse can express (fast-check)', () => {
    fc.assert(fc.property(arbitraryBedrockRequest(), (request) => {
      const encoded = codec.encodeRequest(request);
      expect(encoded.warnings).toEqual([]);
      const decoded = codec.decodeRequest(JSON.parse(JSON.stringify(encoded.value)), { model: request.model, stream: request.stream });
      expect(decoded.value).toEqual(request);
    }), { numRuns: 200 });
  });
});

describe('responses', () => {
  for (const scenario of ['cache-usage', 'tools']) {
    it(`${scenario}: decodes to the golden canonical response and encodes back`, () => {
      const wire = fixture(`${scenario}.response.json`);
      const decoded = codec.decodeResponse(wire);
      expect(decoded).toEqual(fixture(`${scenario}.response.canonical.json`));
      expect(codec.encodeResponse(decoded.value, context)).toEqual(wire);
    });
  }

  it('adds cache reads and writes back into the canonical input count', () => {
    expect(codec.decodeResponse(fixture('cache-usage.response.json')).value.usage.inputTokens).toBe(12 + 1200 + 300);
  });

  it('refuses a body without output.message', () => {
    expect(() => codec.decodeResponse({ stopReason: 'end_turn' })).toThrow(/output\.message/);
  });
});

describe('streams', () => {
  for (const scenario of ['reasoning', 'mid-stream-error']) {
    it(`${scenario}: decodes the recorded events to the golden parts`, () => {
      const decoder = codec.createStreamDecoder();
      const parts = (fixture(`${scenario}.stream.json`) as WireEvent[]).flatMap((event) => decoder.push(event));
      parts.push(...decoder.end());
      expect(parts).toEqual(fixture(`${scenario}.parts.json`));
    });
  }

  it('unwraps events in the SDK JSON shape ({"contentBlockDelta": {…}})', () => {
    const decoder = codec.createStreamDecoder();
    expect(decoder.push({ data: '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"x"}}}' }))
      .toEqual([{ type: 'response-start', id: '', model: '' }, { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'x' }]);
  });

  it('encodes parts as binary frames that decode back to the same parts', async () => {
    const parts = fixture('reasoning.parts.json') as StreamPart[];
    const encoder = codec.createStreamEncoder({ model: MODEL, context });
    if (!isBinaryStreamEncoder(encoder)) throw new Error('the Bedrock encoder must be binary');
    const bytes = Buffer.concat([...parts.map((part) => encoder.pushBytes(part)), encoder.endBytes()]);
    const events = await readFrames(bytes);
    expect(events.map((event) => event.event)).toEqual([
      'messageStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'contentBlockDelta', 'contentBlockStop',
      'contentBlockStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'contentBlockStop',
      'messageStop', 'metadata',
    ]);
    const decoder = codec.createStreamDecoder();
    const again = events.flatMap((event) => decoder.push(event));
    again.push(...decoder.end());
    expect(again).toEqual(parts);
  });

  it('push() gives the same bytes as latin1 text', () => {
    const a = codec.createStreamEncoder({ model: MODEL, context });
    const b = codec.createStreamEncoder({ model: MODEL, context });
    const part: StreamPart = { type: 'text-delta', index: 0, delta: 'é👋' };
    if (!isBinaryStreamEncoder(b)) throw new Error('binary expected');
    expect(Buffer.from(a.push(part), 'latin1')).toEqual(Buffer.from(b.pushBytes(part)));
  });

  it('encodes an error part as an exception frame and stops', async () => {
    const encoder = codec.createStreamEncoder({ model: MODEL, context });
    if (!isBinaryStreamEncoder(encoder)) throw new Error('binary expected');
    const bytes = encoder.pushBytes({ type: 'error', error: { status: 529, kind: 'overloaded', message: 'busy' } });
    expect(await readFrames(bytes)).toEqual([{ event: 'serviceUnavailableException', data: '{"message":"busy"}' }]);
    expect(encoder.pushBytes({ type: 'text-delta', index: 0, delta: 'late' }).length).toBe(0);
  });
});

describe('errors', () => {
  it('decodes the bad-request fixture with the header type', () => {
    const { status, headers, body } = fixture('bad-request.error.json') as { status: number; headers: Record<string, string>; body: unknown };
    expect(decodeBedrockError(status, body, headers['x-amzn-errortype'])).toEqual({ status: 400, kind: 'invalid_request', message: (body as { message: string }).message });
  });

  it('reads __type from the body and falls back on the status', () => {
    expect(codec.decodeError(400, { __type: 'com.amazon.coral.service#ThrottlingException', message: 'slow' })).toMatchObject({ kind: 'rate_limit', status: 400 });
    expect(codec.decodeError(503, { Message: 'down' })).toEqual({ status: 503, kind: 'overloaded', message: 'down' });
    expect(codec.decodeError(500, null)).toMatchObject({ kind: 'api_error' });
  });

  it('encodes gw errors as {message} with x-amzn-errortype, in JSON and in a stream', async () => {
    const error = new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'bad' });
    expect(encodeBedrockError(error)).toEqual({ status: 400, headers: { 'x-amzn-errortype': 'ValidationException' }, body: { message: 'bad' } });
    expect(await readFrames(encodeBedrockStreamError(error))).toEqual([{ event: 'validationException', data: '{"message":"bad"}' }]);
  });
});
