// Only JSON (UTF-8) is parsed, and its raw bytes are kept so a same-format request
// can be forwarded byte for byte. Other bodies (multipart uploads, binary) are
// handed on as a stream, and only on routes that take them; fastify's default of
// also accepting text/plain is removed (a 415 is clearer than a confused parse).
import type { FastifyInstance } from 'fastify';
import { isUtf8 } from 'node:buffer';
import secureJson from 'secure-json-parse';
import { GatewayError } from '../errors.js';


function charsetOf(contentType: string): string | null {
  const match = /;\s*charset=("?)([^";]+)\1/i.exec(contentType);
  return match?.[2]?.toLowerCase() ?? null;
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();

  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json(\s*;.*)?$/i, { parseAs: 'buffer' }, (request, body, done) => {
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
    const text = buffer.toString('utf8');
    try {
      // secure-json-parse refuses __proto__ and constructor.prototype (prototype poisoning).
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      done(toJsonError(error as Error));
    }
  });

  app.addContentTypeParser('*', (request, payload, done) => {
    if (request.gw.route?.jsonBody !== false) {
      const type = request.headers['content-type'] ?? '(none)';
      done(new GatewayError('GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE', { message: `Unsupported Content-Type ${type}: this route takes application/json (UTF-8).` }));
      return;
    }
    done(null, payload);
  });
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
