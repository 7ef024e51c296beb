// Decode, for same-format forwarding: what the client asked for, in its own
// dialect: the operation as a provider names it, the model, and whether it streams.
import { GatewayError } from '../errors.js';
import type { UpstreamOperation, WireDialect } from '../canonical/dialect.js';
import type { PipelineRequest } from './pipeline-types.js';

export interface InboundCall {
  dialect: WireDialect;
  operation: UpstreamOperation;
  /** The model as the client named it (`openai/gpt-4o`, `gpt-4o`, `mock/echo`); null for lists and passthrough. */
  model: string | null;
  stream: boolean;
  /** For passthrough: the rest of the path and its query, forwarded verbatim. */
  passthroughPath?: string;
  /** Called as Azure's /openai/deployments/{name}/…: the model is a deployment name. */
  deployment?: boolean;
  /** A Bedrock Converse client (under /litellm/bedrock/model/{id}/…). */
  bedrock?: boolean;
}

const ROUTE_OPERATIONS: Record<string, UpstreamOperation> = {
  'chat.completions': 'chat.completions',
  completions: 'completions',
  embeddings: 'embeddings',
  'models.list': 'models.list',
  messages: 'messages',
  'messages.count_tokens': 'messages.count_tokens',
  'genai.models.list': 'genai.models.list',
  'responses.create': 'responses.create',
  'responses.input_tokens': 'responses.input_tokens',
};

const GENAI_METHODS: Record<string, UpstreamOperation> = {
  generateContent: 'genai.generateContent',
  streamGenerateContent: 'genai.streamGenerateContent',
  countTokens: 'genai.countTokens',
  embedContent: 'genai.embedContent',
  batchEmbedContents: 'genai.batchEmbedContents',
};

function bodyField(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

function requireModel(body: unknown, request: PipelineRequest): string {
  const fromPath = request.params.deployment;
  const model = fromPath ?? bodyField(body, 'model');
  if (typeof model !== 'string' || model.length === 0) {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request needs a "model" string.', param: 'model' });
  }
  return model;
}

export function readInboundCall(request: PipelineRequest): InboundCall | null {
  const { route, body } = request;
  if (route.operation === 'passthrough') {
    const query = request.query.toString();
    return { dialect: route.family as WireDialect, operation: 'passthrough', model: null, stream: false, passthroughPath: `/${request.params['*'] ?? ''}${query ? `?${query}` : ''}` };
  }
  if (route.operation === 'genai.models') return readGenAiCall(request);
  if (route.operation === 'bedrock.converse' || route.operation === 'bedrock.converse_stream') return readBedrockCall(request);
  const operation = ROUTE_OPERATIONS[route.operation];
  if (!operation) return null;
  // request.family, not route.family: GET /v1/models answers Anthropic clients (anthropic-version) in their shape.
  const dialect: WireDialect = request.family === 'anthropic' ? 'anthropic' : request.family === 'google' ? 'google' : 'openai';
  if (operation === 'models.list' || operation === 'genai.models.list') return { dialect, operation, model: null, stream: false };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request body must be a JSON object.' });
  }
  const stream = bodyField(body, 'stream');
  if (stream !== undefined && typeof stream !== 'boolean') {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: '"stream" must be a boolean.', param: 'stream' });
  }
  return { dialect, operation, model: requireModel(body, request), stream: stream === true, deployment: request.params.deployment !== undefined };
}

/** `models/{model}:{method}`, where the model may itself contain a slash (`anthropic/claude-sonnet-4-5`). */
function readGenAiCall(request: PipelineRequest): InboundCall | null {
  const rest = decodeURIComponent(request.params['*'] ?? '');
  const colon = rest.lastIndexOf(':');
  if (colon <= 0) return null;
  const operation = GENAI_METHODS[rest.slice(colon + 1)];
  if (!operation || request.method !== 'POST') return null;
  if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request body must be a JSON object.' });
  }
  return { dialect: 'google', operation, model: rest.slice(0, colon), stream: operation === 'genai.streamGenerateContent' };
}

/** Bedrock Converse: the model id is in the path (`/bedrock/model/{id}/converse[-stream]`). */
function readBedrockCall(request: PipelineRequest): InboundCall {
  if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request body must be a JSON object.' });
  }
  const stream = request.route.operation === 'bedrock.converse_stream';
  const model = decodeURIComponent(request.params.model_id ?? '');
  return { dialect: 'bedrock', operation: stream ? 'bedrock.converse_stream' : 'bedrock.converse', model, stream, bedrock: true };
}
