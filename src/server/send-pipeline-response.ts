// Writes what the pipeline returned: JSON, bytes, or a stream forwarded chunk by
// chunk as it arrives (never collected first). Adds x-gw-overhead-ms: gw's own time
// up to the response headers, with the wait for the provider taken out.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PipelineResponse } from '../pipeline/handle-request.js';

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

export function overheadNanos(request: FastifyRequest): bigint {
  const state = request.gw;
  const overhead = process.hrtime.bigint() - state.startedAt - state.upstreamNanos;
  return overhead > 0n ? overhead : 0n;
}

export function sendPipelineResponse(request: FastifyRequest, reply: FastifyReply, response: PipelineResponse): FastifyReply {
  const overhead = overheadNanos(request);
  reply.code(response.status).headers(response.headers);
  reply.header('x-gw-overhead-ms', (Number(overhead) / 1e6).toFixed(3));
  request.gw.overheadSeconds = Number(overhead) / 1e9;
  if (isAsyncIterable(response.body) && !(response.body instanceof Buffer)) {
    return reply.send(response.body instanceof Readable ? response.body : Readable.from(response.body, { objectMode: false }));
  }
  return reply.send(response.body);
}
