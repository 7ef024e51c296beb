// Stage 3, decode: what the client asked for, in its own dialect, for every route:
// the operation as a provider names it, the model, whether it streams, and for the
// resource routes which resource route it is. The body itself stays as parsed; the
// codecs read it only when a call is translated.
import { GatewayError } from '../../errors.js';
import type { UpstreamOperation, WireDialect } from '../../canonical/dialect.js';
import { readPassthroughPath } from './passthrough-path.js';
import type { PipelineRequest } from '../pipeline-types.js';
import { findResourceRoute, type ResourceRoute } from './resource-routes.js';
import { isPlainObject } from '../../is-plain-object.js';
import { readVertexAnthropicCall } from './read-vertex-call.js';

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
  /** A resource or media route (files, batches, images, Responses…): forwarded to its own path. */
  resource?: ResourceRoute;
  /** A resource route a provider of another dialect can still serve through the translator. */
  translatable?: boolean;
}

/** Resource routes that cross dialects: Responses is generation, input_tokens a count. */
const TRANSLATABLE: ReadonlySet<string> = new Set(['responses.create', 'responses.input_tokens']);

const ROUTE_OPERATIONS: Record<string, UpstreamOperation> = {
  'chat.completions': 'chat.completions',
  completions: 'completions',
  embeddings: 'embeddings',
  'models.list': 'models.list',
  messages: 'messages',
  'messages.count_tokens': 'messages.count_tokens',
  'genai.models.list': 'genai.models.list',
};

const GENAI_METHODS: Record<string, UpstreamOperation> = {
  generateContent: 'genai.generateContent',
  streamGenerateContent: 'genai.streamGenerateContent',
  countTokens: 'genai.countTokens',
  embedContent: 'genai.embedContent',
  batchEmbedContents: 'genai.batchEmbedContents',
};

function bodyField(body: unknown, name: string): unknown {
  return isPlainObject(body) ? body[name] : undefined;
}

function requireModel(body: unknown, request: PipelineRequest): string {
  const fromPath = request.params.deployment;
  const model = fromPath ?? bodyField(body, 'model');
  if (typeof model !== 'string' || model.length === 0) {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request needs a "model" string.', param: 'model' });
  }
  return model;
}

export function readInboundCall(request: PipelineRequest): InboundCall {
  const { route, body } = request;
  if (route.operation === 'passthrough') {
    const query = request.query.toString();
    // The raw target, not params['*']: the router has already decoded %2F into "/" there.
    const rest = request.rawPath === undefined ? `/${request.params['*'] ?? ''}` : readPassthroughPath(request.rawPath);
    return { dialect: route.dialect as WireDialect, operation: 'passthrough', model: null, stream: false, passthroughPath: `${rest}${query ? `?${query}` : ''}` };
  }
  // Gemini on Vertex (`…/publishers/google/models/{model}:{method}`) is the same GenAI call under a longer path.
  if (route.operation === 'genai.models' || route.operation === 'vertex.genai') return readGenAiCall(request) ?? unknownGenAiPath(request);
  if (route.operation === 'vertex.anthropic') return readVertexAnthropicCall(request);
  if (route.operation === 'bedrock.converse' || route.operation === 'bedrock.converse_stream') return readBedrockCall(request);
  const resource = findResourceRoute(route.operation);
  if (resource) return readResourceCall(request, resource);
  const operation = ROUTE_OPERATIONS[route.operation];
  if (!operation) return notImplemented(request);
  // request.dialect, not route.dialect: GET /v1/models answers Anthropic clients (anthropic-version) in their shape.
  const dialect: WireDialect = request.dialect === 'anthropic' ? 'anthropic' : request.dialect === 'google' ? 'google' : 'openai';
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

/** A resource route: the model its JSON body names, if any (a multipart form is streamed through unread). */
function readResourceCall(request: PipelineRequest, resource: ResourceRoute): InboundCall {
  const model = bodyField(request.body, 'model');
  const stream = bodyField(request.body, 'stream') === true;
  const dialect: WireDialect = request.dialect === 'anthropic' ? 'anthropic' : 'openai';
  return {
    dialect, operation: resource.operation, model: typeof model === 'string' && model !== '' ? model : null, stream, resource,
    ...(TRANSLATABLE.has(resource.operation) ? { translatable: true } : {}),
  };
}

/**
 * Under `models/` a path without `:method` is a GenAI operation gw does not serve yet; straight
 * after the version (the slashed-model route) it is no route at all.
 */
function unknownGenAiPath(request: PipelineRequest): never {
  if (request.route.url.includes('/models/')) notImplemented(request);
  throw new GatewayError('GW_ERR_ROUTE_NOT_FOUND', { message: `No route ${request.method} ${(request.rawPath ?? request.route.url).split('?')[0]} on this gateway.` });
}

function notImplemented(request: PipelineRequest): never {
  throw new GatewayError('GW_ERR_OPERATION_NOT_IMPLEMENTED', {
    message: `The operation "${request.route.operation}" (${request.method} ${request.route.url}) is not implemented by this gateway yet.`,
  });
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
