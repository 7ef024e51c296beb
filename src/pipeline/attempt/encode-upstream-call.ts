// Stage 6, encode, same format: the client's original bytes with only the model
// patched. The parsed object is serialised instead when the bytes cannot be
// patched safely (duplicate top-level keys) or gw must add a field. The URL and
// headers are send-to-provider.ts's.
import type { Readable } from 'node:stream';
import type { TranslationWarning } from '../../canonical/codec.js';
import { stripForeignThinking } from '../../formats/codec-registry.js';
import { patchTopLevelString, scanTopLevel } from '../../formats/patch-json-field.js';
import type { UpstreamCall } from '../../providers/provider-adapter.js';
import { adapterForModel } from '../../providers/registry.js';
import { withoutGenAiKey } from '../govern/leaving-query.js';
import type { PipelineRequest } from '../pipeline-types.js';
import type { Target } from '../plan/plan-targets.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import type { ProviderRequest } from './send-to-provider.js';
import { isPlainObject } from '../../is-plain-object.js';
import { CACHE_MARKER_WARNING, type AddCacheMarker } from '../plan/cache-marker-for.js';

export interface EncodedCall {
  request: ProviderRequest;
  /** gw asked for stream usage the client did not (stream_options.include_usage): hide that chunk. */
  hideUsageChunk: boolean;
  resource: null;
  /** Thinking dropped because it carried another provider's signature (counted by the caller). */
  warnings?: TranslationWarning[];
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return isPlainObject(value) && !Buffer.isBuffer(value);
}

/** OpenAI streams report usage only when asked; gw asks an OpenAI-dialect provider so the audit has tokens, and hides the extra chunk. */
function needsUsageRequested(call: InboundCall, target: Target, body: JsonObject): boolean {
  if (call.operation !== 'chat.completions' || !call.stream || adapterForModel(target.provider, target.upstreamModel).dialect !== 'openai') return false;
  const options = body.stream_options;
  return !(isObject(options) && options.include_usage === true);
}

function encodeJsonBody(request: PipelineRequest, call: InboundCall, target: Target, mark: AddCacheMarker | null): { bytes: Buffer; hideUsageChunk: boolean; warnings?: TranslationWarning[] } {
  let original = request.body as JsonObject;
  // A session that crossed dialects may hold thinking with a gw carrier, never an Anthropic signature.
  const stripped = call.operation === 'messages' && adapterForModel(target.provider, target.upstreamModel).dialect === 'anthropic' ? stripForeignThinking(original) : null;
  if (stripped) original = stripped.body;
  let json = original;
  const setModel = adapterForModel(target.provider, target.upstreamModel).modelInBody(target.provider) && target.upstreamModel !== null && original.model !== target.upstreamModel;
  if (setModel) json = { ...json, model: target.upstreamModel };
  const hideUsageChunk = needsUsageRequested(call, target, original);
  if (hideUsageChunk) json = { ...json, stream_options: { ...(isObject(original.stream_options) ? original.stream_options : {}), include_usage: true } };
  // A prompt-cache marker (policy cache_marker on, none from the client): the body is re-encoded, and the record says so.
  const marked = mark === null ? null : mark(json);
  if (marked) return { bytes: Buffer.from(JSON.stringify(marked)), hideUsageChunk, warnings: [...(stripped?.warnings ?? []), { code: CACHE_MARKER_WARNING }] };
  if (stripped) return { bytes: Buffer.from(JSON.stringify(json)), hideUsageChunk, warnings: stripped.warnings };
  const raw = request.rawBody;
  // DLP's key count already proved the bytes free of duplicates; scan only when it did not run.
  if (!raw || hideUsageChunk || (request.rawKeysUnique !== true && scanTopLevel(raw, 'model').duplicateKeys)) return { bytes: Buffer.from(JSON.stringify(json)), hideUsageChunk };
  if (!setModel) return { bytes: raw, hideUsageChunk };
  const patched = typeof original.model === 'string' ? patchTopLevelString(raw, 'model', target.upstreamModel!) : null;
  return { bytes: patched ?? Buffer.from(JSON.stringify(json)), hideUsageChunk };
}

/** `mark`: the prompt-cache marker to add (plan/cache-marker-for.ts), null when the setting is off. */
export function encodeUpstreamCall(request: PipelineRequest, call: InboundCall, target: Target, mark: AddCacheMarker | null = null): EncodedCall {
  const upstreamCall: UpstreamCall = { operation: call.operation, model: target.upstreamModel, stream: call.stream, query: queryFor(request, target) };
  // A passthrough forwards the rest of its path; a provider of every dialect (another gw) is sent the client's own path.
  if (call.passthroughPath !== undefined) upstreamCall.clientPath = call.passthroughPath;
  else if (adapterForModel(target.provider, target.upstreamModel).dialect === 'any') upstreamCall.clientPath = clientPathOf(request);
  if (call.operation === 'passthrough') {
    // What DLP scanned is what leaves: the raw bytes (replaced by the scanned object after a redaction), or the streamed body.
    const body = request.rawBody ?? (isReadable(request.body) ? request.body : null);
    const refusal = request.bodyRefusal ? { bodyRefusal: request.bodyRefusal } : {};
    return { request: { call: upstreamCall, method: request.method, clientHeaders: request.headers, body, ...refusal }, hideUsageChunk: false, resource: null };
  }
  const encoded = encodeJsonBody(request, call, target, mark);
  return {
    request: { call: upstreamCall, method: 'POST', clientHeaders: request.headers, body: encoded.bytes, contentType: 'application/json' },
    hideUsageChunk: encoded.hideUsageChunk, resource: null, ...(encoded.warnings ? { warnings: encoded.warnings } : {}),
  };
}

/**
 * Azure's api-version means nothing to other providers (the Azure adapter sets its own). A GenAI
 * client's `?key=` is its own credential: it leaves for no provider (DLP does not scan it for that reason).
 */
function queryFor(request: PipelineRequest, target: Target): URLSearchParams {
  const query = withoutGenAiKey(request);
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
  const query = withoutGenAiKey(request).toString();
  const path = request.route.url.replace(/:(\w+)/g, (_match, name: string) => request.params[name] ?? '').replace('*', request.params['*'] ?? '');
  return `${path}${query ? `?${query}` : ''}`;
}
