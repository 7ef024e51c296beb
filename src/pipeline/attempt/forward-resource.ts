// Stage 6, encode, for the resource and media routes (src/pipeline/routes/resource-routes.ts):
// the client's request to its own path under the provider's API root. Uploads are
// the parser's stream piped into undici, never held in memory (DLP reads text
// uploads as they pass: govern-request.ts); a JSON body goes as its original bytes
// with only the model patched, or re-serialised after a redaction.
import type { Readable } from 'node:stream';
import { patchTopLevelString } from '../../formats/patch-json-field.js';
import type { UpstreamCall } from '../../providers/provider-adapter.js';
import { adapterFor } from '../../providers/registry.js';
import type { PipelineRequest } from '../pipeline-types.js';
import type { Target } from '../plan/plan-targets.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import { readRerankRequest } from './read-rerank-request.js';
import { tapBatchFile } from '../plan/read-batch-file.js';
import { tapFormFields } from '../plan/read-form-fields.js';
import { mediaUnitOf } from '../plan/media-units.js';
import { clientPathOf, resourcePathOf } from '../decode/resource-routes.js';
import type { ProviderRequest } from './send-to-provider.js';
import type { ResourceCall } from '../relay/target-reply.js';
import { isPlainObject } from '../../is-plain-object.js';

type JsonObject = Record<string, unknown>;

export interface EncodedResourceCall {
  request: ProviderRequest;
  hideUsageChunk: false;
  resource: ResourceCall;
}

export function encodeResourceCall(request: PipelineRequest, call: InboundCall, target: Target): EncodedResourceCall {
  const route = call.resource!;
  const upstreamCall: UpstreamCall = {
    operation: route.operation, model: target.upstreamModel, stream: call.stream, query: request.query,
    resourcePath: resourcePathOf(request), clientPath: clientPathOf(request),
  };
  const resource: ResourceCall = {
    route, provider: target.provider.name, rerank: null, method: request.method, resourceId: (route.idParam && request.params[route.idParam]) || null,
    fields: isJsonObject(request.body) ? request.body : {},
  };
  const providerRequest: ProviderRequest = { call: upstreamCall, method: request.method, clientHeaders: request.headers, body: null };
  if (request.rawBody !== null && isJsonObject(request.body)) {
    providerRequest.contentType = 'application/json';
    const mapper = adapterFor(target.provider.kind).rerank;
    if (route.rerank && mapper) {
      resource.rerank = { request: readRerankRequest(request.body, target.upstreamModel), mapper };
      providerRequest.body = Buffer.from(JSON.stringify(mapper.encodeRequest(resource.rerank.request)));
    } else {
      providerRequest.body = patchModel(request.rawBody, request.body, target);
    }
  } else if (request.rawBody !== null) {
    // A small non-JSON body, read whole and scanned (src/server/body-parsers.ts): the client's bytes.
    providerRequest.body = request.rawBody;
  } else if (isReadable(request.body)) {
    providerRequest.body = request.body;
    const type = request.headers['content-type'];
    if (mediaUnitOf(route.operation) && typeof type === 'string' && /^multipart\//i.test(type)) {
      const tap = tapFormFields(request.body, type);
      providerRequest.body = tap.body;
      resource.fields = tap.fields;
    }
    if (route.operation === 'files' && request.method === 'POST' && typeof type === 'string' && /^multipart\//i.test(type)) {
      resource.batchFile = tapBatchFile(request.body, type);
      providerRequest.body = resource.batchFile.body;
    }
    if (request.bodyRefusal) providerRequest.bodyRefusal = request.bodyRefusal;
    // undici sends a stream chunked unless told its length; providers' upload endpoints prefer the length.
    const length = request.headers['content-length'];
    if (typeof length === 'string' && /^\d+$/.test(length)) providerRequest.contentLength = length;
  }
  return { request: providerRequest, hideUsageChunk: false, resource };
}

/** The client's bytes with only `model` replaced (provider/model → model); re-serialised only when patching cannot. */
function patchModel(raw: Buffer, body: JsonObject, target: Target): Buffer {
  const model = target.upstreamModel;
  if (model === null || body.model === model || typeof body.model !== 'string') return raw;
  return patchTopLevelString(raw, 'model', model) ?? Buffer.from(JSON.stringify({ ...body, model }));
}

function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value) && !Buffer.isBuffer(value) && !isReadable(value);
}

function isReadable(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function';
}
