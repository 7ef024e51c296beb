// Writes what the pipeline returned: JSON, bytes, or a stream forwarded chunk by
// chunk as it arrives (never collected first). Adds x-gw-overhead-ms: gw's own time
// up to the response headers, with the wait for the provider taken out.
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PipelineResponse } from '../pipeline/handle-request.js';
import type { RequestTrace } from '../pipeline/request-trace.js';

export function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && Symbol.asyncIterator in value;
}

function overheadNanos(request: FastifyRequest): bigint {
  const state = request.gw;
  const overhead = process.hrtime.bigint() - state.startedAt - state.trace.upstreamNanos;
  return overhead > 0n ? overhead : 0n;
}

export async function sendPipelineResponse(request: FastifyRequest, reply: FastifyReply, response: PipelineResponse): Promise<FastifyReply> {
  const overhead = overheadNanos(request);
  reply.code(response.status).headers(response.headers);
  reply.header('x-gw-overhead-ms', (Number(overhead) / 1e6).toFixed(3));
  request.gw.overheadSeconds = Number(overhead) / 1e9;
  if (Buffer.isBuffer(response.body) && hasPlainBody(request, reply, response.status)) return writeBytes(reply, response.status, response.body);
  if (!isAsyncIterable(response.body)) return reply.send(response.body);
  // Streams are written straight to the socket: a Readable wrapper per response
  // costs more CPU than the copy itself.
  reply.hijack();
  await writeStream(reply.raw, response.status, reply.getHeaders(), response.body, request.gw.trace);
  return reply;
}

/** A media type fastify's send would accept as given (type/subtype tokens); anything else stays on its path. */
const PLAIN_CONTENT_TYPE = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;|$)/;

/**
 * The cases reply.send treats specially (HEAD's kept length, no-body statuses, a missing or
 * unparseable content-type it replaces) stay on reply.send, so the bytes on the wire never differ.
 */
function hasPlainBody(request: FastifyRequest, reply: FastifyReply, status: number): boolean {
  const contentType = reply.getHeader('content-type');
  return request.raw.method !== 'HEAD' && status >= 200 && status !== 204 && status !== 304
    && typeof contentType === 'string' && PLAIN_CONTENT_TYPE.test(contentType);
}

/**
 * A whole body in bytes (every non-streaming provider answer) is written with one raw
 * writeHead + end, as streams are: reply.send's content-type parse and send-hook walk were a
 * measurable share of gw's CPU per request. content-length is set to the byte count as fastify does.
 */
function writeBytes(reply: FastifyReply, status: number, body: Buffer): FastifyReply {
  const length = reply.getHeader('content-length');
  if (!length || Number(length) !== body.length) reply.header('content-length', String(body.length));
  const raw = reply.raw;
  try {
    raw.writeHead(status, reply.getHeaders() as Record<string, string>);
  } catch {
    // An invalid header value: reply.send's own error path answers as it always did.
    return reply.send(body);
  }
  reply.hijack();
  raw.end(body);
  return reply;
}

async function writeStream(raw: ServerResponse, status: number, headers: ReturnType<FastifyReply['getHeaders']>, body: AsyncIterable<Uint8Array | string>, trace: RequestTrace): Promise<void> {
  raw.writeHead(status, headers as Record<string, string>);
  raw.flushHeaders();
  try {
    for await (const chunk of body) {
      if (raw.destroyed) break;
      if (trace.clientFirstByteAt === null) trace.noteClientFirstByte();
      if (!raw.write(chunk)) await drainedOrClosed(raw);
    }
  } catch {
    // A body cut on purpose (output DLP on a download whose status is already sent): the client
    // must see a broken transfer, never a short body that looks whole. The trace holds the why.
    raw.destroy();
  } finally {
    if (!raw.destroyed) raw.end();
  }
}

function drainedOrClosed(raw: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.once('drain', done);
    raw.once('close', done);
  });
}
