// Stage 3, decode, for Anthropic models on Vertex AI (`…/publishers/anthropic/models/{model}:rawPredict`):
// Claude Code with CLAUDE_CODE_USE_VERTEX=1 sends an Anthropic Messages body with the model in
// the path and `anthropic_version` in the body. The body is rewritten once, here, into the
// first-party shape (model in the body, no `anthropic_version`), so govern, plan, attempt and
// record see one Anthropic Messages call, whatever route it came by (docs/decisions.md).
import { GatewayError } from '../../errors.js';
import { isPlainObject } from '../../is-plain-object.js';
import type { PipelineRequest } from '../pipeline-types.js';

/** The Anthropic call a Vertex route carries (an InboundCall; declared here, as read-inbound-call.ts imports this file). */
export interface VertexAnthropicCall {
  dialect: 'anthropic';
  operation: 'messages' | 'messages.count_tokens';
  model: string;
  stream: boolean;
}

/** Vertex dates a Claude model with `@` (`claude-sonnet-4-5@20250929`); Anthropic's API with `-`. */
const VERTEX_DATED_ID = /^(.+)@(\d{8})$/;

/** The Anthropic id gw routes for a Vertex model id: `name@YYYYMMDD` → `name-YYYYMMDD`; any other id unchanged. */
export function anthropicModelForVertex(model: string): string {
  const dated = VERTEX_DATED_ID.exec(model);
  return dated ? `${dated[1]}-${dated[2]}` : model;
}

/** Claude Code's count-tokens call names no model in its path: `models/count-tokens:rawPredict`, the model in the body. */
const COUNT_TOKENS_MODEL = 'count-tokens';

export function readVertexAnthropicCall(request: PipelineRequest): VertexAnthropicCall {
  const rest = decodeURIComponent(request.params['*'] ?? '');
  const colon = rest.lastIndexOf(':');
  const method = rest.slice(colon + 1);
  if (colon <= 0 || (method !== 'rawPredict' && method !== 'streamRawPredict')) {
    throw new GatewayError('GW_ERR_OPERATION_NOT_IMPLEMENTED', {
      message: `Only :rawPredict and :streamRawPredict are served for Anthropic models on this Vertex route, not "${rest}".`,
    });
  }
  const body = request.body;
  if (!isPlainObject(body) || Buffer.isBuffer(body)) {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request body must be a JSON object.' });
  }
  // Vertex says streaming by the method; the body's own `stream` follows it.
  const { anthropic_version: _version, stream: _stream, ...messages } = body;
  const pathModel = rest.slice(0, colon);
  if (pathModel === COUNT_TOKENS_MODEL) return rewrite(request, messages, 'messages.count_tokens', false);
  const stream = method === 'streamRawPredict';
  return rewrite(request, { ...messages, model: pathModel, ...(stream ? { stream: true } : {}) }, 'messages', stream);
}

function rewrite(request: PipelineRequest, body: Record<string, unknown>, operation: 'messages' | 'messages.count_tokens', stream: boolean): VertexAnthropicCall {
  const model = typeof body.model === 'string' && body.model !== '' ? anthropicModelForVertex(body.model) : null;
  if (model === null) throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request needs a "model" string.', param: 'model' });
  const rewritten = { ...body, model };
  request.body = rewritten;
  // The bytes that leave are these: encode forwards rawBody unchanged when the model needs no patch.
  request.rawBody = Buffer.from(JSON.stringify(rewritten));
  return { dialect: 'anthropic', operation, model, stream };
}
