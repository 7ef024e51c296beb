// One request's path through gw, read top to bottom. The server has already
// matched the route, authenticated the caller at the door and parsed the body;
// everything after that happens here:
//   decode → routing → encode → provider → relay (usage read on the side)
// Policy and DLP stages slot in between decode and routing.
import type { AuditTokens } from '../audit/record.js';
import type { Usage } from '../canonical/usage.js';
import { GatewayError } from '../errors.js';
import { adapterFor } from '../providers/registry.js';
import { encodeUpstreamCall } from './encode-upstream-call.js';
import type { GatewayServices } from './gateway-services.js';
import { listModels } from './list-models.js';
import { readInboundCall } from './read-inbound-call.js';
import { relayStream, readJsonBody } from './relay-response.js';
import { chooseTarget } from './choose-target.js';
import { callProvider } from './call-provider.js';
import { buildClientHeaders } from './upstream-headers.js';
import type { PipelineFacts, PipelineRequest, PipelineResponse } from './pipeline-types.js';

export type { PipelineFacts, PipelineRequest, PipelineResponse } from './pipeline-types.js';

export async function handleRequest(request: PipelineRequest, services: GatewayServices, facts: PipelineFacts): Promise<PipelineResponse> {
  // 1. decode: what the client asked for, in its own dialect.
  const inbound = readInboundCall(request);
  if (!inbound) throw notImplemented(request);
  facts.model = inbound.model;
  if (inbound.operation === 'models.list' || inbound.operation === 'genai.models.list') {
    return listModels(inbound.dialect, services, request.signal);
  }

  // 2. routing: the model (or the passthrough prefix) picks the provider.
  const target = chooseTarget(inbound, services.providers(), request.family);
  facts.provider = target.provider.name;
  const adapter = adapterFor(target.provider.kind);
  if (adapter.dialect !== 'any' && adapter.dialect !== inbound.dialect) {
    throw new GatewayError('GW_ERR_TRANSLATION_UNAVAILABLE', {
      message: `Model "${inbound.model}" is served by ${target.provider.name}, which speaks the ${adapter.dialect} format; translating from ${inbound.dialect} is not available yet.`,
    });
  }

  // 3. encode: the client's own bytes with only the model patched (same format).
  const call = encodeUpstreamCall(request, inbound, target, adapter);

  // 4. provider: undici upstream, or the mock in-process.
  const started = process.hrtime.bigint();
  const upstream = await callProvider(call, target.provider, services.upstream, request.signal);
  facts.upstreamNanos += process.hrtime.bigint() - started;
  if (upstream.status >= 400) facts.outcome.push(`upstream_${upstream.status}`);

  // 5. relay: streams as they arrive; JSON read whole for its usage.
  const contentType = String(upstream.headers['content-type'] ?? '');
  if (upstream.status < 400 && contentType.includes('text/event-stream')) {
    let settle = () => {};
    facts.settled = new Promise((resolve) => { settle = resolve; });
    const body = relayStream(upstream.body, {
      dialect: inbound.dialect, hideUsageChunk: call.hideUsageChunk, signal: request.signal,
      onDone: ({ usage, bytes, failure }) => {
        facts.tokens = toAuditTokens(usage);
        facts.bytesOut = bytes;
        if (failure) facts.outcome.push(failure.code);
        settle();
      },
    });
    return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body };
  }
  const readStarted = process.hrtime.bigint();
  const json = await readJsonBody(upstream.body, inbound.dialect);
  facts.upstreamNanos += process.hrtime.bigint() - readStarted;
  facts.tokens = toAuditTokens(json.usage);
  facts.bytesOut = json.bytes.length;
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body: json.bytes };
}

function notImplemented(request: PipelineRequest): GatewayError {
  return new GatewayError('GW_ERR_OPERATION_NOT_IMPLEMENTED', {
    message: `The operation "${request.route.operation}" (${request.method} ${request.route.url}) is not implemented by this gateway yet.`,
  });
}

function toAuditTokens(usage: Usage | undefined): AuditTokens | null {
  if (!usage) return null;
  const tokens: AuditTokens = {
    input: usage.inputTokens, output: usage.outputTokens, cached_read: usage.cachedReadTokens,
    cache_write: usage.cacheWriteTokens, total: usage.totalTokens,
  };
  return Object.values(tokens).some((value) => value !== undefined) ? tokens : null;
}
