// Provider → client for the resource routes. Three ways back:
//   - an event stream (POST /v1/responses with stream): forwarded as it arrives, the
//     response id read from its first events and usage on the side (relay-response.ts);
//   - a JSON answer: read whole (bounded), the ids it names remembered, sent unchanged;
//   - anything else, and every download (file content, audio, results): piped through
//     chunk by chunk with its length, never held, its bytes counted for the audit.
import { codecForCall } from '../formats/codec-registry.js';
import type { RerankMapper, RerankRequest } from '../providers/provider-adapter.js';
import type { ResourceIdStore } from '../state/resource-ids.js';
import { SseDecoder } from '../streaming/sse-decoder.js';
import type { UpstreamResponse } from '../upstream/upstream-client.js';
import type { PipelineFacts, PipelineResponse } from './pipeline-types.js';
import { toAuditTokens } from './audit-tokens.js';
import { readJsonBody, relayStream } from './relay-response.js';
import type { ResourceRoute } from './resource-routes.js';
import { buildClientHeaders } from './upstream-headers.js';
import type { CancelSignal } from '../upstream/cancel-signal.js';

export interface ResourceRelayContext {
  route: ResourceRoute;
  /** The provider instance that served the call: the creator of any id in the answer. */
  provider: string;
  ids: ResourceIdStore | undefined;
  signal: CancelSignal;
}

/** Fields of resource objects that name other resources of the same provider (a batch's files). */
const ID_FIELDS = ['id', 'input_file_id', 'output_file_id', 'error_file_id'];

export async function relayResource(upstream: UpstreamResponse, context: ResourceRelayContext, facts: PipelineFacts): Promise<PipelineResponse> {
  const type = String(upstream.headers['content-type'] ?? '');
  if (upstream.status < 400 && type.includes('text/event-stream')) return relayEvents(upstream, context, facts);
  if (context.route.download || !type.includes('json')) return relayBytes(upstream, facts);
  const readStarted = process.hrtime.bigint();
  const json = await readJsonBody(upstream.body, 'openai');
  facts.upstreamNanos += process.hrtime.bigint() - readStarted;
  facts.tokens = toAuditTokens(json.usage);
  facts.bytesOut = json.bytes.length;
  if (upstream.status < 400 && context.ids) rememberIds(json.bytes, context.provider, context.ids);
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body: json.bytes };
}

/** Rerank answers in the provider's format are mapped to gw's; refusals pass through as they are. */
export async function relayRerank(upstream: UpstreamResponse, mapper: RerankMapper, request: RerankRequest, facts: PipelineFacts): Promise<PipelineResponse> {
  const json = await readJsonBody(upstream.body, 'openai');
  const headers = buildClientHeaders(upstream.headers, false);
  if (upstream.status >= 400) {
    facts.bytesOut = json.bytes.length;
    return { status: upstream.status, headers, body: json.bytes };
  }
  let parsed: unknown;
  try { parsed = JSON.parse(json.bytes.toString('utf8')); } catch { parsed = null; }
  const mapped = mapper.decodeResponse(parsed, request);
  const bytes = Buffer.from(JSON.stringify(mapped));
  const total = mapped.usage?.total_tokens;
  if (total !== undefined) facts.tokens = { input: total, total };
  facts.bytesOut = bytes.length;
  return { status: upstream.status, headers: { ...headers, 'content-type': 'application/json' }, body: bytes };
}

function relayEvents(upstream: UpstreamResponse, context: ResourceRelayContext, facts: PipelineFacts): PipelineResponse {
  let settle = () => {};
  facts.settled = new Promise((resolve) => { settle = resolve; });
  const tapped = tapResponseId(upstream.body, (id) => context.ids?.remember(id, context.provider));
  const body = relayStream(tapped, {
    // The route's own codec: a Responses stream fails with response.failed, not Chat's error line.
    codec: codecForCall('openai', context.route.operation), hideUsageChunk: false, signal: context.signal,
    onFinished: () => { facts.finished = true; },
    onDone: ({ usage, bytes, failure }) => {
      facts.tokens = toAuditTokens(usage);
      facts.bytesOut = bytes;
      if (failure) facts.outcome.push(failure.code);
      settle();
    },
  });
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body };
}

function relayBytes(upstream: UpstreamResponse, facts: PipelineFacts): PipelineResponse {
  let settle = () => {};
  facts.settled = new Promise((resolve) => { settle = resolve; });
  async function* counted(): AsyncGenerator<Uint8Array> {
    let bytes = 0;
    try {
      for await (const chunk of upstream.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        yield chunk;
      }
    } finally {
      facts.bytesOut = bytes;
      settle();
    }
  }
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, true), body: counted() };
}

/** Reads event data until the response id shows (`response.created` is the first event), then only forwards. */
async function* tapResponseId(body: AsyncIterable<Uint8Array>, onId: (id: string) => void): AsyncGenerator<Uint8Array> {
  const decoder = new SseDecoder();
  let looking = true;
  for await (const chunk of body) {
    if (looking) {
      try {
        for (const event of decoder.push(chunk)) {
          const id = readResponseId(event.data);
          if (id !== undefined) { onId(id); looking = false; break; }
        }
      } catch { looking = false; }
    }
    yield chunk;
  }
}

function readResponseId(data: string): string | undefined {
  if (!data.includes('"response"')) return undefined;
  try {
    const id = (JSON.parse(data) as { response?: { id?: unknown } }).response?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function rememberIds(bytes: Buffer, provider: string, ids: ResourceIdStore): void {
  let json: unknown;
  try { json = JSON.parse(bytes.toString('utf8')); } catch { return; }
  const objects = [json, ...(Array.isArray((json as { data?: unknown })?.data) ? (json as { data: unknown[] }).data : [])];
  for (const object of objects) {
    if (typeof object !== 'object' || object === null) continue;
    for (const field of ID_FIELDS) {
      const value = (object as Record<string, unknown>)[field];
      if (typeof value === 'string') ids.remember(value, provider);
    }
  }
}
