// body_limit_bytes is a live setting: a declared content-length is checked at the
// door; a chunked body is counted here as it is read, against the limit in force now.
import { Transform } from 'node:stream';
import { GatewayError } from '../errors.js';

/** fastify's own ceiling; the setting cannot go above it (src/state/settings.ts). */
export const MAX_BODY_LIMIT_BYTES = 1024 * 1024 * 1024;
/**
 * Uploads streamed through to the provider (multipart files, audio, images) are never
 * held in memory, so body_limit_bytes (which bounds what gw reads) does not apply; this
 * ceiling does. Provider limits are lower (OpenAI files: 512 MB; the Uploads API for more).
 */
export const STREAMED_BODY_LIMIT_BYTES = 8 * 1024 * 1024 * 1024;

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };

export function limitBodySize(payload: Payload, limit: number, lengthDeclared: boolean): Payload {
  if (lengthDeclared) return payload;
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      (counter as Payload).receivedEncodedLength = received;
      if (received > limit) {
        done(new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message: `The request body is larger than this gateway accepts (${limit} bytes; setting body_limit_bytes).` }));
        return;
      }
      done(null, chunk);
    },
  });
  payload.on('error', (error) => counter.destroy(error));
  return payload.pipe(counter) as Payload;
}
