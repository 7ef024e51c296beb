// Same-format forwarding of the resource and media routes (src/pipeline/resource-routes.ts):
// pick the provider (choose-resource-target.ts), send the client's request to its own
// path under that provider's API root, and relay the answer (relay-resource.ts).
// Uploads are the parser's stream piped into undici, never held in memory; a JSON
// body goes as its original bytes with only the model patched.
import type { Readable } from 'node:stream';
import { GatewayError } from '../errors.js';
import { patchTopLevelString } from '../formats/patch-json-field.js';
import type { ProviderAdapter, UpstreamCall } from '../providers/provider-adapter.js';
import { adapterFor } from '../providers/registry.js';
import { resolveModel } from '../routing/resolve-model.js';
import type { Target } from './choose-target.js';
import { chooseResourceTarget } from './choose-resource-target.js';
import type { GatewayServices } from './gateway-services.js';
import type { PipelineFacts, PipelineRequest, PipelineResponse } from './pipeline-types.js';
import { readRerankRequest } from './read-rerank-request.js';
import { relayResource, relayRerank } from './relay-resource.js';
import { clientPathOf, findResourceRoute, resourcePathOf, type ResourceRoute } from './resource-routes.js';
import { buildUpstreamHeaders } from './upstream-headers.js';

type JsonObject = Record<string, unknown>;

export function isResourceOperation(operation: string): boolean {
  return findResourceRoute(operation) !== null;
}

/** Null when the route is not forwarded here: a Responses call to a provider of another dialect is translated instead. */
export async function forwardResource(request: PipelineRequest, services: GatewayServices, facts: PipelineFacts): Promise<PipelineResponse | null> {
  const route = findResourceRoute(request.route.operation);
  if (route === null || handledByTranslation(request, route, services)) return null;
  const model = isJsonObject(request.body) && typeof request.body.model === 'string' ? request.body.model : null;
  facts.model = model;
  const target = chooseResourceTarget(request, route, services);
  facts.provider = target.provider.name;
  const adapter = adapterFor(target.provider.kind);
  const stream = isJsonObject(request.body) && request.body.stream === true;
  const call: UpstreamCall = { operation: route.operation, model: target.upstreamModel, stream, query: request.query, resourcePath: resourcePathOf(request) };
  if (adapter.kind === 'gateway') call.clientPath = clientPathOf(request);
  const url = adapter.urlFor(target.provider, call);
  if (url === null) throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', { message: `Provider ${target.provider.name} (${adapter.kind}) does not offer ${route.operation}.` });
  const headers = buildUpstreamHeaders(request.headers, { auth: adapter.authHeaders(target.provider), defaults: adapter.defaultHeaders(target.provider) });
  const body = encodeBody(request, route, target, adapter, headers);

  const started = process.hrtime.bigint();
  const upstream = await services.upstream.send({ url, method: request.method, headers, body: body.bytes, signal: request.signal });
  facts.upstreamNanos += process.hrtime.bigint() - started;
  if (upstream.status >= 400) facts.outcome.push(`upstream_${upstream.status}`);
  if (body.rerank !== null && adapter.rerank) return relayRerank(upstream, adapter.rerank, body.rerank, facts);
  return relayResource(upstream, { route, provider: target.provider.name, ids: services.resourceIds, signal: request.signal }, facts);
}

/** POST /v1/responses for a model of a provider that does not speak OpenAI's format goes to the translator. */
function handledByTranslation(request: PipelineRequest, route: ResourceRoute, services: GatewayServices): boolean {
  if (route.operation !== 'responses.create' || !isJsonObject(request.body) || typeof request.body.model !== 'string') return false;
  if (request.headers['x-gw-provider'] !== undefined) return false;
  const { providers, aliases } = services.providers();
  const provider = resolveModel(request.body.model, providers, aliases).provider;
  // The mock answers Responses through the translator too (as Chat), so Codex works on it with no keys.
  if (provider.kind === 'mock') return true;
  const dialect = adapterFor(provider.kind).dialect;
  return dialect !== 'openai' && dialect !== 'any';
}

interface EncodedBody {
  bytes: Buffer | Readable | null;
  /** The rerank request as gw read it, to map the answer back. */
  rerank: ReturnType<typeof readRerankRequest> | null;
}

function encodeBody(request: PipelineRequest, route: ResourceRoute, target: Target, adapter: ProviderAdapter, headers: Record<string, string>): EncodedBody {
  if (request.rawBody !== null && isJsonObject(request.body)) {
    headers['content-type'] = 'application/json';
    if (route.rerank && adapter.rerank) {
      const rerank = readRerankRequest(request.body, target.upstreamModel);
      return { bytes: Buffer.from(JSON.stringify(adapter.rerank.encodeRequest(rerank))), rerank };
    }
    return { bytes: patchModel(request.rawBody, request.body, target), rerank: null };
  }
  if (isReadable(request.body)) {
    // undici sends a stream chunked unless told its length; providers' upload endpoints prefer the length.
    const length = request.headers['content-length'];
    if (typeof length === 'string' && /^\d+$/.test(length)) headers['content-length'] = length;
    return { bytes: request.body, rerank: null };
  }
  return { bytes: null, rerank: null };
}

/** The client's bytes with only `model` replaced (provider/model → model); re-serialised only when patching cannot. */
function patchModel(raw: Buffer, body: JsonObject, target: Target): Buffer {
  const model = target.upstreamModel;
  if (model === null || body.model === model || typeof body.model !== 'string') return raw;
  return patchTopLevelString(raw, 'model', model) ?? Buffer.from(JSON.stringify({ ...body, model }));
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value) && !isReadable(value);
}

function isReadable(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function';
}
