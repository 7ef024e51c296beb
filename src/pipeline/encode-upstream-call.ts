// Encode, same format: the upstream URL, the headers (client credentials out, the
// provider's in) and the body: the client's original bytes with only the model
// patched. The parsed object is serialised instead when the bytes cannot be
// patched safely (duplicate top-level keys) or gw must add a field.
import type { Readable } from 'node:stream';
import { GatewayError } from '../errors.js';
import { patchTopLevelString, scanTopLevel } from '../formats/patch-json-field.js';
import type { ProviderAdapter, UpstreamCall } from '../providers/provider-adapter.js';
import type { PipelineRequest } from './pipeline-types.js';
import type { InboundCall } from './read-inbound-call.js';
import type { Target } from './choose-target.js';
import { buildUpstreamHeaders } from './upstream-headers.js';

export interface EncodedCall {
  call: UpstreamCall;
  /** Null for the in-process mock. */
  url: string | null;
  method: string;
  headers: Record<string, string>;
  body: Buffer | Readable | null;
  /** The parsed body as forwarded (for the mock, and what DLP will scan). */
  json: unknown;
  hideUsageChunk: boolean;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** OpenAI streams report usage only when asked; gw asks so the audit has tokens, and hides the extra chunk. */
function needsUsageRequested(inbound: InboundCall, target: Target, body: JsonObject): boolean {
  if (inbound.operation !== 'chat.completions' || !inbound.stream || target.provider.kind === 'mock' || target.provider.kind === 'gateway') return false;
  const options = body.stream_options;
  return !(isObject(options) && options.include_usage === true);
}

function encodeJsonBody(request: PipelineRequest, inbound: InboundCall, target: Target, adapter: ProviderAdapter): { bytes: Buffer; json: JsonObject; hideUsageChunk: boolean } {
  const original = request.body as JsonObject;
  let json = original;
  const setModel = adapter.modelInBody(target.provider) && target.upstreamModel !== null && original.model !== target.upstreamModel;
  if (setModel) json = { ...json, model: target.upstreamModel };
  const hideUsageChunk = needsUsageRequested(inbound, target, original);
  if (hideUsageChunk) json = { ...json, stream_options: { ...(isObject(original.stream_options) ? original.stream_options : {}), include_usage: true } };
  const raw = request.rawBody;
  // DLP's key count already proved the bytes free of duplicates; scan only when it did not run.
  if (!raw || hideUsageChunk || (request.rawKeysUnique !== true && scanTopLevel(raw, 'model').duplicateKeys)) return { bytes: Buffer.from(JSON.stringify(json)), json, hideUsageChunk };
  if (!setModel) return { bytes: raw, json, hideUsageChunk };
  const patched = typeof original.model === 'string' ? patchTopLevelString(raw, 'model', target.upstreamModel!) : null;
  return { bytes: patched ?? Buffer.from(JSON.stringify(json)), json, hideUsageChunk };
}

export function encodeUpstreamCall(request: PipelineRequest, inbound: InboundCall, target: Target, adapter: ProviderAdapter): EncodedCall {
  const call: UpstreamCall = {
    operation: inbound.operation,
    model: target.upstreamModel,
    stream: inbound.stream,
    query: queryFor(request.query, target),
  };
  // Another gw serves the same paths; a passthrough forwards the rest of its path.
  if (adapter.kind === 'gateway' || inbound.operation === 'passthrough') call.clientPath = inbound.passthroughPath ?? clientPathOf(request);
  const url = target.provider.kind === 'mock' ? null : adapter.urlFor(target.provider, call);
  if (url === null && target.provider.kind !== 'mock') {
    throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', { message: `Provider ${target.provider.name} (${adapter.kind}) does not offer ${inbound.operation}.` });
  }
  const headers = buildUpstreamHeaders(request.headers, { auth: adapter.authHeaders(target.provider), defaults: adapter.defaultHeaders(target.provider) });
  if (inbound.operation === 'passthrough') {
    const body = request.rawBody ?? (isReadable(request.body) ? request.body : null);
    return { call, url, method: request.method, headers, body, json: request.body, hideUsageChunk: false };
  }
  const encoded = encodeJsonBody(request, inbound, target, adapter);
  headers['content-type'] = 'application/json';
  return { call, url, method: 'POST', headers, body: encoded.bytes, json: encoded.json, hideUsageChunk: encoded.hideUsageChunk };
}

/** Azure's api-version means nothing to other providers (the Azure adapter sets its own). */
function queryFor(query: URLSearchParams, target: Target): URLSearchParams {
  if (!query.has('api-version') || target.provider.kind === 'azure') return query;
  const copy = new URLSearchParams(query);
  copy.delete('api-version');
  return copy;
}

function isReadable(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function';
}

/** The path and query the client called on gw, for a gateway provider (another gw serves the same paths). */
function clientPathOf(request: PipelineRequest): string {
  const query = request.query.toString();
  const path = request.route.url.replace(/:(\w+)/g, (_match, name: string) => request.params[name] ?? '').replace('*', request.params['*'] ?? '');
  return `${path}${query ? `?${query}` : ''}`;
}
