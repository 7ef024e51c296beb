// Every error reply goes through here: fastify's own errors are mapped onto the
// catalog, then encoded in the caller's dialect by that dialect's codec.
import { lingerOnClose } from './linger-close.js';
import type { FastifyReply } from 'fastify';
import { GatewayError, type ErrorCode } from '../errors.js';
import { codecForDialect } from '../formats/codec-registry.js';
import type { RouteDialect } from '../canonical/dialect.js';

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'GW_ERR_REQUEST_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'GW_ERR_REQUEST_EMPTY_BODY',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'GW_ERR_REQUEST_INVALID',
  FST_ERR_CTP_INVALID_JSON_BODY: 'GW_ERR_REQUEST_MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_TYPE: 'GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_BAD_URL: 'GW_ERR_REQUEST_INVALID',
  FST_ERR_ASYNC_CONSTRAINT: 'GW_ERR_REQUEST_INVALID',
};

/** Turns anything thrown while serving a request into a catalog error that is safe to show. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && FASTIFY_CODES[code]) return new GatewayError(FASTIFY_CODES[code]);
  if (error instanceof SyntaxError) return new GatewayError('GW_ERR_REQUEST_MALFORMED_JSON');
  const message = error instanceof Error ? error.message : '';
  // secure-json-parse's refusals of __proto__ / constructor.prototype.
  if (/prototype|__proto__/i.test(message)) {
    return new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request body contains a forbidden property (__proto__ or constructor.prototype).' });
  }
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (status === 408) return new GatewayError('GW_ERR_REQUEST_TIMEOUT');
  if (status === 413) return new GatewayError('GW_ERR_REQUEST_TOO_LARGE');
  if (status === 415) return new GatewayError('GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE');
  return new GatewayError('GW_ERR_SERVER_INTERNAL', { cause: error });
}

/**
 * Refusals whose text names the rule that refused (the budget and its period, the policy and its
 * field, the DLP rule; gw's own words, never the matched text): kept on the record as
 * data.refusal, so the console's explorer can say who refused the call.
 */
const NAMED_REFUSALS: ReadonlySet<ErrorCode> = new Set(['GW_ERR_BUDGET_EXCEEDED', 'GW_ERR_BUDGET_UNPRICED', 'GW_ERR_POLICY_DENIED', 'GW_ERR_POLICY_RATE_LIMITED', 'GW_ERR_DLP_BLOCKED']);

export function sendError(reply: FastifyReply, dialect: RouteDialect, error: GatewayError, options: { closeConnection?: boolean } = {}): FastifyReply {
  const wire = codecForDialect(dialect).encodeError(error);
  const trace = reply.request.gw?.trace;
  if (trace && !trace.outcome.includes(error.code)) trace.noteOutcome(error.code);
  if (trace && NAMED_REFUSALS.has(error.code)) trace.noteData('refusal', error.message);
  // Closing tells the client we will not read a body we refused before parsing it.
  if (options.closeConnection) {
    reply.header('connection', 'close');
    lingerOnClose(reply.request.raw, reply.raw.socket);
  }
  return reply.code(wire.status).headers(wire.headers).type('application/json').send(wire.body);
}
