// Stage 7, relay, for the resource routes. Three ways back:
//   - an event stream (POST /v1/responses with stream): forwarded as it arrives, the
//     response id read from its first events and usage on the side (relay/relay-same-dialect.ts);
//   - a JSON answer: read whole (bounded), the ids it names remembered, sent unchanged;
//   - anything else, and every download (file content, audio, results): piped through
//     chunk by chunk with its length, never held, its bytes counted for the audit.
// Output DLP reads the JSON answers, the event streams and text downloads.
import { codecForCall, codecForOperation } from '../../formats/codec-registry.js';
import { mapOpenAiShapedUsage } from '../../formats/shared/openai-usage.js';
import type { RerankMapper, RerankRequest } from '../../providers/provider-adapter.js';
import { createUploadScanner, type UploadScanner } from '../../dlp/scan-upload.js';
import { GatewayError } from '../../errors.js';
import type { ResourceIdStore } from '../../state/resource-ids.js';
import { SseDecoder } from '../../streaming/sse-decoder.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import { toAuditTokens } from './audit-tokens.js';
import { BatchResultsUsage } from './batch-results-usage.js';
import { rememberBatchFile } from '../plan/read-batch-file.js';
import type { AuditTokens } from '../../audit/record.js';
import type { ProviderReply, ResourceCall } from './target-reply.js';
import { answerOf, tapStreamedImages, type StreamedImages } from './image-stream-tap.js';
import { mediaUnitOf, type MediaUnit } from '../plan/media-units.js';
import { noteMediaUsage } from './note-media-usage.js';
import type { Governed } from '../govern/govern-request.js';
import type { PipelineResponse } from '../pipeline-types.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import { readJsonBody, type JsonAnswer } from './read-json-reply.js';
import { relayStream } from './relay-same-dialect.js';
import type { RequestTrace } from '../request-trace.js';
import { createEveryStringReader, scanOutputJson, scanOutputStream } from './scan-output.js';
import { scanErrorBody } from './scan-provider-reply.js';
import { buildClientHeaders } from '../govern/upstream-headers.js';
import { isPlainObject } from '../../is-plain-object.js';

export interface ResourceRelayContext extends ResourceCall {
  ids: ResourceIdStore | undefined;
  signal: CancelSignal;
  call: InboundCall;
  governed: Governed;
}

/** Fields of resource objects that name other resources of the same provider (a batch's files). */
const ID_FIELDS = ['id', 'input_file_id', 'output_file_id', 'error_file_id'];

export async function relayResource(upstream: ProviderReply, context: ResourceRelayContext, trace: RequestTrace): Promise<PipelineResponse> {
  if (context.rerank !== null) return relayRerank(upstream, context.rerank.mapper, context.rerank.request, trace);
  const type = String(upstream.headers['content-type'] ?? '');
  // Media calls are priced by units (images, seconds of audio, characters), counted on success only.
  const unit = upstream.status < 400 && context.method === 'POST' ? mediaUnitOf(context.route.operation) : undefined;
  if (upstream.status < 400 && type.includes('text/event-stream')) return relayEvents(upstream, context, trace, unit);
  if (context.route.download || !type.includes('json')) {
    // Speech (audio bytes) counts the request's characters; a text transcript leaves its duration unknown.
    if (unit) trace.noteUsage(noteMediaUsage(trace, context.fields, unit, undefined, null));
    return relayBytes(upstream, downloadScan(type, context, trace), trace, batchResultsUsage(upstream.status, context, trace));
  }
  const readStarted = process.hrtime.bigint();
  const json = await readJsonBody(upstream.body, 'openai');
  trace.noteUpstreamWait(readStarted);
  const tokens = upstream.status < 400 ? await usageOfAnswer(json, context, trace, unit) : null;
  trace.noteUsage(tokens);
  context.governed.settle(tokens);
  if (upstream.status < 400) scanOutputJson(json.bytes, context.governed, trace, json.answer);
  // An error body is the provider's text too (scan-provider-reply.ts).
  const body = upstream.status < 400 ? json.bytes : scanErrorBody(json.bytes, json.answer, context.governed, trace);
  trace.noteBytesOut(body.length);
  if (upstream.status < 400 && context.ids) await rememberIds(json.answer, context.provider, context.ids);
  if (upstream.status < 400 && context.ids && context.batchFile) await rememberBatchFile(json.answer, context.batchFile, context.ids);
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body };
}

/**
 * The usage a JSON answer makes this call's: a call that did work (a POST) reports what it used;
 * a retrieval (GET of a stored response, a batch) repeats usage recorded when the work ran, and
 * is not usage again. The exception is a finished OpenAI batch, the first time any instance sees
 * it: its work ran at the provider, not through gw, so this is where its usage is recorded (and
 * priced at the batch price), once.
 */
async function usageOfAnswer(json: JsonAnswer, context: ResourceRelayContext, trace: RequestTrace, unit: MediaUnit | undefined): Promise<AuditTokens | null> {
  if (unit) return noteMediaUsage(trace, context.fields, unit, json.answer, toAuditTokens(json.usage));
  if (context.method !== 'GET') return toAuditTokens(json.usage);
  if (context.route.operation !== 'batches.item' || json.usage === undefined || !context.ids) return null;
  const batch = json.answer as { id?: unknown; status?: unknown; model?: unknown } | undefined;
  if (typeof batch !== 'object' || batch === null) return null;
  if (batch.status !== 'completed' || typeof batch.id !== 'string' || typeof batch.model !== 'string') return null;
  try {
    if (!(await context.ids.claim(`usage:${batch.id}`, context.provider))) return null;
  } catch {
    trace.noteWarning('batch_usage_unrecorded');
    return null;
  }
  trace.noteBatch(batch.model);
  return toAuditTokens(json.usage);
}

/** Rerank answers in the provider's format are mapped to gw's; refusals pass through as they are. */
async function relayRerank(upstream: ProviderReply, mapper: RerankMapper, request: RerankRequest, trace: RequestTrace): Promise<PipelineResponse> {
  const json = await readJsonBody(upstream.body, 'openai');
  const headers = buildClientHeaders(upstream.headers, false);
  if (upstream.status >= 400) {
    trace.noteBytesOut(json.bytes.length);
    return { status: upstream.status, headers, body: json.bytes };
  }
  const mapped = mapper.decodeResponse(json.answer ?? null, request);
  const bytes = Buffer.from(JSON.stringify(mapped));
  const total = mapped.usage?.total_tokens;
  if (total !== undefined) trace.noteUsage({ input: total, total });
  trace.noteBytesOut(bytes.length);
  return { status: upstream.status, headers: { ...headers, 'content-type': 'application/json' }, body: bytes };
}

function relayEvents(upstream: ProviderReply, context: ResourceRelayContext, trace: RequestTrace, unit: MediaUnit | undefined): PipelineResponse {
  // A streamed image generation's images are its completed events (image-stream-tap.ts).
  const images: StreamedImages | null = unit === 'images' ? { images: 0, usage: null } : null;
  // Not awaited: the stream goes on while a shared store writes (its remember reports its own errors).
  const ids = tapResponseId(upstream.body, (id) => void context.ids?.remember(id, context.provider));
  const tapped = images ? tapStreamedImages(ids, images) : ids;
  const body = relayStream(tapped, {
    // The route's own codec: a Responses stream fails with response.failed, not Chat's error line.
    codec: codecForCall('openai', context.route.operation), hideUsageChunk: false, signal: context.signal,
    // A hang-up once the answer is complete reads on for response.completed's usage (relay/drain-after-answer.ts).
    drain: trace.upstreamDrain,
    onFinished: () => trace.noteFinished(),
    onDone: ({ usage, bytes, failure, afterHangUp }) => {
      const reported = toAuditTokens(usage) ?? (images?.usage ? toAuditTokens(mapOpenAiShapedUsage(images.usage)) : null);
      const tokens = unit && !failure ? noteMediaUsage(trace, context.fields, unit, images ? answerOf(images) : undefined, reported) : toAuditTokens(usage);
      trace.noteUsage(tokens);
      if (afterHangUp && tokens?.output !== undefined) trace.noteUsageAfterHangUp();
      context.governed.settle(tokens);
      trace.noteBytesOut(bytes);
      if (failure) trace.noteOutcome(failure.code);
    },
  });
  // A stream that is no model answer (a transcription's, an image's) is read string by string.
  const reader = codecForOperation(context.route.operation) === undefined ? createEveryStringReader : undefined;
  const scanned = scanOutputStream(body, context.governed, codecForCall('openai', context.route.operation), trace, reader);
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, false), body: trace.trackStream(scanned) };
}

/**
 * With output scanning on, a text download (batch results, a JSONL or text file) is read as it
 * passes, each chunk released once scanned: a block cuts the download there (its status is
 * already sent). Binary downloads (audio, video, images) pass unscanned, and the record says so.
 */
function downloadScan(type: string, context: ResourceRelayContext, trace: RequestTrace): UploadScanner | null {
  const { dlp } = context.governed;
  if (!dlp.outputScan || dlp.rules.length === 0) return null;
  if (!TEXT_DOWNLOAD.test(type)) {
    trace.noteWarning('dlp_output_unscanned: binary download');
    return null;
  }
  return createUploadScanner(dlp.rules);
}

const TEXT_DOWNLOAD = /json|text\/|jsonl|ndjson|xml|csv/i;

function relayBytes(upstream: ProviderReply, scanner: UploadScanner | null, trace: RequestTrace, results: BatchResultsTap | null): PipelineResponse {
  async function* counted(): AsyncGenerator<Uint8Array> {
    let bytes = 0;
    let whole = false;
    try {
      for await (const chunk of upstream.body) {
        const found = scanner?.push(chunk);
        if (found?.blockedBy) {
          trace.noteOutcome('GW_ERR_DLP_BLOCKED');
          throw new GatewayError('GW_ERR_DLP_BLOCKED', { message: `The download was cut by DLP rule "${found.blockedBy}".` });
        }
        results?.reader.push(chunk);
        bytes += chunk.length;
        yield chunk;
      }
      whole = true;
    } finally {
      trace.noteBytesOut(bytes);
      // The scanner's counts are running totals: noted once, at the end or the cut.
      for (const [ruleId, matches] of Object.entries(scanner?.end().counts ?? {})) trace.noteDlp(`output.${ruleId}`, matches);
      // A batch's results count once they have all passed: a cut download may be fetched again.
      if (whole && results) await results.finish();
    }
  }
  return { status: upstream.status, headers: buildClientHeaders(upstream.headers, true), body: trace.trackStream(counted()) };
}

interface BatchResultsTap {
  reader: BatchResultsUsage;
  finish(): Promise<void>;
}

/**
 * An Anthropic message batch's results download: its usage is recorded on the first download that
 * passes whole (claimed once across instances), priced as its model at the batch price. A batch of
 * several models is recorded with its tokens and an unknown price, rather than one model's.
 */
function batchResultsUsage(status: number, context: ResourceRelayContext, trace: RequestTrace): BatchResultsTap | null {
  if (context.route.operation !== 'messages.batches.results' || status >= 400 || !context.ids || !context.resourceId) return null;
  const reader = new BatchResultsUsage();
  const { ids, resourceId, provider } = context;
  return {
    reader,
    async finish() {
      reader.end();
      const models = [...reader.byModel];
      if (models.length === 0) return;
      try {
        if (!(await ids.claim(`usage:${resourceId}`, provider))) return;
      } catch {
        trace.noteWarning('batch_usage_unrecorded');
        return;
      }
      if (models.length === 1) trace.noteBatch(models[0]![0]);
      else {
        trace.noteBatch(models.map(([model]) => model).join(','));
        trace.noteCost({ price: 'unknown' });
      }
      trace.noteUsage(toAuditTokens(reader.total()));
    },
  };
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
    const event: unknown = JSON.parse(data);
    const id = isPlainObject(event) && isPlainObject(event.response) ? event.response.id : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves once a shared store has the ids, so the client never holds an id another instance cannot find. */
async function rememberIds(json: unknown, provider: string, ids: ResourceIdStore): Promise<void> {
  if (json === undefined) return;
  const writes: Promise<void>[] = [];
  const objects = [json, ...(Array.isArray((json as { data?: unknown })?.data) ? (json as { data: unknown[] }).data : [])];
  for (const object of objects) {
    if (typeof object !== 'object' || object === null) continue;
    for (const field of ID_FIELDS) {
      const value = (object as Record<string, unknown>)[field];
      if (typeof value === 'string') writes.push(Promise.resolve(ids.remember(value, provider)));
    }
  }
  await Promise.all(writes);
}
