// A local node:http stand-in for bedrock-runtime: it checks each request's SigV4 signature
// with an independent derivation and answers Converse (JSON) and ConverseStream (binary
// event stream, written in awkward chunks). gw's signer, event-stream reader and codec talk to it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamPart } from '../../../../src/canonical/response.js';
import { bedrockConverseCodec } from '../../../../src/formats/bedrock-converse/index.js';
import { concatFrames, encodeEventFrame } from '../../../../src/formats/bedrock-converse/event-stream-frames.js';
import { bedrockAdapter } from '../../../../src/providers/bedrock/adapter.js';
import { decodeBedrockEventStream } from '../../../../src/providers/bedrock/event-stream.js';
import { signBedrockRequest } from '../../../../src/providers/bedrock/sign-request.js';
import { deriveAuthorization } from '../../../providers/bedrock/derive-sigv4.js';

const CREDENTIALS = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' };
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const seen: string[] = [];
let server: Server;
let baseUrl = '';

const STREAM = concatFrames([
  encodeEventFrame('messageStart', { role: 'assistant' }),
  encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hel' } }),
  encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'lo' } }),
  encodeEventFrame('contentBlockStop', { contentBlockIndex: 0 }),
  encodeEventFrame('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_1', name: 'read' } } }),
  encodeEventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"path":' } } }),
  encodeEventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"a.ts"}' } } }),
  encodeEventFrame('contentBlockStop', { contentBlockIndex: 1 }),
  encodeEventFrame('messageStop', { stopReason: 'tool_use' }),
  encodeEventFrame('metadata', { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, metrics: { latencyMs: 12 } }),
]);

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of request) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then(async (body) => {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => ['host', 'content-type', 'x-amz-date', 'x-amz-content-sha256'].includes(name)).map(([name, value]) => [name, String(value)]));
      const expected = deriveAuthorization({ url: `http://${request.headers.host}${request.url}`, body, headers, region: 'us-east-1', service: 'bedrock', ...CREDENTIALS });
      seen.push(request.url ?? '');
      if (request.headers.authorization !== expected) {
        response.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'InvalidSignatureException' });
        response.end(JSON.stringify({ message: 'The request signature we calculated does not match the signature you provided.' }));
        return;
      }
      if (request.url?.endsWith('/converse-stream')) {
        response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
        // Cut the frames at odd places, as the network does.
        for (let start = 0; start < STREAM.length; start += 7) {
          response.write(STREAM.subarray(start, start + 7));
          await new Promise((resolve) => setImmediate(resolve));
        }
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({
        output: { message: { role: 'assistant', content: [{ text: 'Hello' }] } },
        stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 }, metrics: { latencyMs: 9 },
      }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function call(operation: 'bedrock.converse' | 'bedrock.converse_stream', credentials = CREDENTIALS): Promise<Response> {
  const request = bedrockConverseCodec.encodeRequest({
    model: MODEL, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: operation === 'bedrock.converse_stream', extensions: {},
  });
  const url = bedrockAdapter.urlFor({ name: 'bedrock', kind: 'bedrock', baseUrl, apiKey: null, source: 'environment' }, { operation, model: MODEL, stream: false });
  const body = JSON.stringify(request.value);
  const signed = await signBedrockRequest({ url: url ?? '', method: 'POST', headers: { 'content-type': 'application/json' }, body, region: 'us-east-1', credentials });
  const { host: _host, ...headers } = signed;
  return fetch(url ?? '', { method: 'POST', headers, body });
}

describe('Bedrock against a local stand-in', () => {
  it('signs a Converse call the server accepts and decodes its answer', async () => {
    const response = await call('bedrock.converse');
    expect(response.status).toBe(200);
    const decoded = bedrockConverseCodec.decodeResponse(await response.json());
    expect(decoded.value.content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(decoded.value.usage).toEqual({ inputTokens: 3, outputTokens: 1, totalTokens: 4 });
    expect(seen.at(-1)).toBe(`/model/${encodeURIComponent(MODEL)}/converse`);
  });

  it('reads a ConverseStream binary stream into canonical parts', async () => {
    const response = await call('bedrock.converse_stream');
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const decoder = bedrockConverseCodec.createStreamDecoder();
    const parts: StreamPart[] = [];
    for await (const event of decodeBedrockEventStream(response.body as unknown as AsyncIterable<Uint8Array>)) parts.push(...decoder.push(event));
    parts.push(...decoder.end());
    expect(parts).toEqual([
      { type: 'response-start', id: '', model: '' },
      { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'Hel' }, { type: 'text-delta', index: 0, delta: 'lo' }, { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'tooluse_1', name: 'read' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"path":' }, { type: 'tool-call-delta', index: 1, argumentsDelta: '"a.ts"}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
    ]);
  });

  it('gets a Bedrock error with a wrong secret, decoded from the header type', async () => {
    const response = await call('bedrock.converse', { ...CREDENTIALS, secretAccessKey: 'wrong' });
    expect(response.status).toBe(403);
    const error = bedrockConverseCodec.decodeError(response.status, await response.json());
    expect(error).toMatchObject({ status: 403, kind: 'permission' });
    expect(error.message).toMatch(/signature/);
  });
});
