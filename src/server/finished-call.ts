// A fastify request whose response has closed, read as the record stage's finished call
// (pipeline/record/record-call.ts): the only part of stage 8 that knows fastify.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FinishedCall } from '../pipeline/record/record-call.js';

/** Null for a request the door never saw (fastify answered it before onRequest). */
export function readFinishedCall(request: FastifyRequest, reply: FastifyReply): FinishedCall | null {
  const state = request.gw;
  if (!state) return null;
  // writableEnded: the response was completed by us (a finished write may still be in flight).
  // A client that hangs up after its stream's final event (Codex after response.completed) got everything.
  const clientLeft = !reply.raw.writableEnded && !state.trace.finished;
  const contentLength = Number(request.headers['content-length'] ?? NaN);
  return {
    id: request.id, method: request.method, url: request.url, state, clientLeft, status: reply.statusCode,
    origin: state.origin ?? request.ip,
    bytesIn: state.rawBody?.length ?? (Number.isFinite(contentLength) ? contentLength : 0),
    contentLength: Number(reply.getHeader('content-length') ?? 0),
    lineageSource: { headers: request.headers, body: request.body },
  };
}
