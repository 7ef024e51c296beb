// One request's path through gw, read top to bottom. The server has already
// matched the route, authenticated the caller at the door and parsed the body;
// everything after that happens here:
//   decode → govern (BYOK, policy, limits, DLP) → [resource routes] → routing → encode → provider → relay
// (the relay reads usage on the side; a different provider dialect is translated inside the try).
import { toAuditTokens } from './audit-tokens.js';
import { classifyUpstreamError } from '../upstream/upstream-client.js';
import { GatewayError } from '../errors.js';
import type { GatewayServices } from './gateway-services.js';
import { listModels } from './list-models.js';
import { readInboundCall, type InboundCall } from './read-inbound-call.js';
import { relayStream, readJsonBody } from './relay-response.js';
import { buildClientHeaders } from './upstream-headers.js';
import type { PipelineFacts, PipelineRequest, PipelineResponse } from './pipeline-types.js';
import { forwardResource } from './forward-resource.js';
import { governRequest } from './govern-request.js';
import { attemptTargets, planTargets } from './attempt-targets.js';
import { tryTarget } from './try-target.js';
import { scanOutputJson, scanOutputStream } from './scan-output.js';
import { refuseResponsesWebSocket } from './responses-websocket.js';

export type { PipelineFacts, PipelineRequest, PipelineResponse } from './pipeline-types.js';

export async function handleRequest(request: PipelineRequest, services: GatewayServices, facts: PipelineFacts): Promise<PipelineResponse> {
  if (request.route.operation === 'responses.websocket') throw refuseResponsesWebSocket();
  // 1. decode: what the client asked for, in its own dialect (null for most resource routes).
  const inbound = readInboundCall(request);
  if (inbound?.operation === 'models.list' || inbound?.operation === 'genai.models.list') {
    return listModels(inbound.dialect, services, request.signal);
  }

  // 2. govern (govern-request.ts): bring-your-own-key, policy and rate limits, DLP over the parsed
  // body, for every route, resources included (a Responses input item is scanned like a message).
  const governed = governRequest(request, inbound ?? resourceCall(request), services, facts);

  // 3. resources and media routes (files, batches, images, audio, rerank…): forward-resource.ts.
  const resource = await forwardResource(request, services, facts);
  if (resource) return resource;
  if (!inbound) throw notImplemented(request);
  facts.model = inbound.model;

  // 4. routing, encode, provider (attempt-targets.ts → try-target.ts): a routing rule's weighted
  // targets or the model's provider, tried in turn (fallbacks, retries, per-target time-outs) until
  // one answers, all before the first byte reaches the client.
  const sent = await attemptTargets(planTargets(inbound, request, services, governed), request, facts,
    (target, signal) => tryTarget(request, inbound, target, services, facts, signal));
  if (sent.kind === 'translated') return sent.response;
  const { call, upstream } = sent;
  if (upstream.status >= 400) facts.outcome.push(`upstream_${upstream.status}`);

  // 5. relay: streams as they arrive; JSON read whole for its usage.
  const contentType = String(upstream.headers['content-type'] ?? '');
  if (upstream.status < 400 && contentType.includes('text/event-stream')) {
    let settle = () => {};
    facts.settled = new Promise((resolve) => { settle = resolve; });
    const body = scanOutputStream(relayStream(upstream.body, {
      dialect: inbound.dialect, hideUsageChunk: call.hideUsageChunk, signal: request.signal,
      onFinished: () => { facts.finished = true; },
      onDone: ({ usage, bytes, failure }) => {
        facts.tokens = toAuditTokens(usage);
        governed.settle(facts.tokens);
        facts.bytesOut = bytes;
        if (failure) facts.outcome.push(failure.code);
        settle();
      },
    }), governed, inbound.dialect, facts);
    return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body };
  }
  if (upstream.status < 400 && inbound.stream) {
    // A stream that is not SSE (Bedrock's binary event stream, GenAI's JSON array): relayed as it is.
    return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body: countBytes(upstream.body, facts) };
  }
  const readStarted = process.hrtime.bigint();
  const json = await readJsonBody(upstream.body, inbound.dialect, upstream.headers);
  facts.upstreamNanos += process.hrtime.bigint() - readStarted;
  facts.tokens = toAuditTokens(json.usage);
  governed.settle(facts.tokens);
  if (upstream.status < 400) scanOutputJson(json.bytes, governed, facts);
  facts.bytesOut = json.bytes.length;
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body: json.bytes };
}

/** A resource route as policy sees it: its route operation and the model its JSON body names, if any. */
function resourceCall(request: PipelineRequest): InboundCall {
  const body = request.body as { model?: unknown } | null;
  const model = typeof body?.model === 'string' ? body.model : null;
  return { dialect: 'openai', operation: request.route.operation as InboundCall['operation'], model, stream: false };
}

function notImplemented(request: PipelineRequest): GatewayError {
  return new GatewayError('GW_ERR_OPERATION_NOT_IMPLEMENTED', {
    message: `The operation "${request.route.operation}" (${request.method} ${request.route.url}) is not implemented by this gateway yet.`,
  });
}

async function* countBytes(body: AsyncIterable<Uint8Array>, facts: PipelineFacts): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      yield chunk;
    }
  } catch (error) {
    // No in-stream error event exists for these formats: the stream ends where the provider's did.
    facts.outcome.push(classifyUpstreamError(error).code);
  } finally {
    facts.bytesOut = bytes;
  }
}
