// JSON (UTF-8) is parsed, and its raw bytes are kept so a same-format request can
// be forwarded byte for byte. On routes that take other bodies (passthrough,
// uploads), a multipart upload is handed on as a stream, and any other body is read
// into memory up to BUFFERED_BODY_BYTES whatever its declared type: JSON in it is
// parsed like a JSON body, so DLP reads a JSON body sent as text/plain or
// octet-stream exactly as it reads application/json; a larger one streams on.
// DLP reads every one of these (src/pipeline/govern/govern-request.ts). Routes that take
// only JSON answer another content type with 415.
import type { FastifyInstance } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { GatewayError } from '../errors.js';
import { BUFFERED_BODY_BYTES, JSON_CONTENT_TYPE } from '../pipeline/door/limit-body-size.js';
import { MAX_JSON_DEPTH, parseJsonBytes, readJsonLayout } from '../pipeline/door/parse-json-bytes.js';


function charsetOf(contentType: string): string | null {
  const match = /;\s*charset=("?)([^";]+)\1/i.exec(contentType);
  return match?.[2]?.toLowerCase() ?? null;
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();

  app.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type'] ?? '');
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      done(new GatewayError('GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE', { message: `Unsupported charset "${charset}": JSON bodies must be UTF-8.` }));
      return;
    }
    const buffer = body as Buffer;
    if (buffer.length === 0) {
      done(new GatewayError('GW_ERR_REQUEST_EMPTY_BODY'));
      return;
    }
    request.gw.rawBody = buffer;
    // isUtf8 is native and allocates nothing; a fatal TextDecoder costs more per request.
    if (!isUtf8(buffer)) {
      done(new GatewayError('GW_ERR_REQUEST_MALFORMED_JSON', { message: 'The request body is not valid UTF-8.' }));
      return;
    }
    const layout = readJsonLayout(buffer);
    if (layout.tooDeep) {
      done(tooDeep());
      return;
    }
    try {
      done(null, parseJsonBytes(buffer, layout));
    } catch (error) {
      done(toJsonError(error as Error));
    }
  });

  app.addContentTypeParser('*', (request, payload, done) => {
    const type = request.headers['content-type'] ?? '';
    if (request.gw.route?.jsonBody !== false) {
      done(new GatewayError('GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE', { message: `Unsupported Content-Type ${type || '(none)'}: this route takes application/json (UTF-8).` }));
      return;
    }
    // Multipart uploads stream on; so do the hub's own form routes, which read their bounded forms themselves.
    if (/^multipart\//i.test(type) || request.gw.route?.authenticated !== true) {
      done(null, payload);
      return;
    }
    readSmallBody(payload).then((read) => {
      if (read.rest !== null) return done(null, read.rest);
      request.gw.rawBody = read.bytes;
      const parsed = parseIfJson(read.bytes);
      if (parsed instanceof GatewayError) return done(parsed);
      done(null, parsed);
    }, (error: Error) => done(error));
  });
}

/** The whole body when it fits BUFFERED_BODY_BYTES; else a stream that replays what was read, then the rest. */
async function readSmallBody(payload: NodeJS.ReadableStream): Promise<{ bytes: Buffer; rest: null } | { bytes: null; rest: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = (payload as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { bytes: Buffer.concat(chunks, size), rest: null };
    chunks.push(next.value);
    size += next.value.length;
    if (size > BUFFERED_BODY_BYTES) break;
  }
  async function* replay(): AsyncGenerator<Buffer> {
    yield* chunks;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { bytes: null, rest: Readable.from(replay(), { objectMode: false }) };
}

/** A JSON object or array, whatever the declared type, is read as JSON; anything else stays bytes. */
function parseIfJson(bytes: Buffer): unknown {
  const first = bytes.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  if ((first !== 0x7b && first !== 0x5b) || !isUtf8(bytes)) return bytes;
  // Refused like a JSON body: DLP and the forwarders would walk it just as deep.
  const layout = readJsonLayout(bytes);
  if (layout.tooDeep) return tooDeep();
  try {
    return parseJsonBytes(bytes, layout);
  } catch {
    // Not JSON after all (or poisoned): scanned as text, forwarded as the client sent it.
    return bytes;
  }
}

function tooDeep(): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message: `The request body nests JSON deeper than this gateway accepts (${MAX_JSON_DEPTH} levels).` });
}

function toJsonError(error: Error): GatewayError {
  if (/prototype|__proto__/i.test(error.message)) {
    return new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request body contains a forbidden property (__proto__ or constructor.prototype).' });
  }
  // V8's message quotes the body; only the position is repeated, so no body text is echoed or logged.
  const position = /position (\d+)/.exec(error.message)?.[1];
  const where = position ? ` (at byte ${position})` : '';
  return new GatewayError('GW_ERR_REQUEST_MALFORMED_JSON', { message: `The request body is not valid JSON${where}.` });
}
