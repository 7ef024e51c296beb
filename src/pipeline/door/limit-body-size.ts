// body_limit_bytes is a live setting: a declared content-length is checked at the
// door (admit-body.ts); a chunked body is counted here as it is read, against the limit in force now,
// and the part of it gw holds in memory is taken from the body budget (body-budget.ts).
import { Transform } from 'node:stream';
import { GatewayError } from '../../errors.js';

/** fastify's own ceiling; the setting cannot go above it (src/state/settings.ts). */
export const MAX_BODY_LIMIT_BYTES = 1024 * 1024 * 1024;
/**
 * Uploads streamed through to the provider (multipart files, audio, images) are never
 * held in memory, so body_limit_bytes (which bounds what gw reads) does not apply; this
 * ceiling does. Provider limits are lower (OpenAI files: 512 MB; the Uploads API for more).
 */
export const STREAMED_BODY_LIMIT_BYTES = 8 * 1024 * 1024 * 1024;
/**
 * Routes read before any credential (the hub's forms, /health, unknown paths) take at
 * most this much, the hub's form limit: a stranger's body costs gw no more than that.
 */
export const UNAUTHENTICATED_BODY_LIMIT_BYTES = 16 * 1024;
/** Non-multipart bodies on upload and passthrough routes up to this size are read whole (and scanned whole). */
export const BUFFERED_BODY_BYTES = 8 * 1024 * 1024;
/** The content types parsed as JSON (and so held whole): application/json and application/*+json. */
export const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i;

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };

/** The share of a chunked body that gw holds in memory, counted as it arrives. */
export interface ChunkHold {
  take(bytes: number): GatewayError | null;
  /** Bytes past this many stream on and are not held (a large non-JSON body: server/body-parsers.ts). */
  heldUpTo: number;
}

export interface BodySizeRule {
  limit: number;
  /** What sets the limit, named in the refusal: `setting body_limit_bytes`, `before authentication`. */
  source: string;
  /** A declared content-length was checked (and held) at the door. */
  lengthDeclared: boolean;
  hold: ChunkHold | null;
}

export function limitBodySize(payload: Payload, { limit, source, lengthDeclared, hold }: BodySizeRule): Payload {
  if (lengthDeclared) return payload;
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const before = received;
      received += chunk.length;
      (counter as Payload).receivedEncodedLength = received;
      if (received > limit) {
        done(new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message: `The request body is larger than this gateway accepts (${limit} bytes; ${source}).` }));
        return;
      }
      const refusal = hold ? hold.take(Math.max(0, Math.min(received, hold.heldUpTo) - before)) : null;
      done(refusal, refusal ? undefined : chunk);
    },
  });
  payload.on('error', (error: Error) => counter.destroy(error));
  return payload.pipe(counter) as Payload;
}
