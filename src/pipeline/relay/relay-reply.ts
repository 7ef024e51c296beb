// Stage 7, relay: the provider's answer back to the client, on every path, with output
// DLP (`gw dlp output on`) wherever text comes back, response headers and error bodies
// of any status included (scan-provider-reply.ts):
//   - translated or counted (already in the client's dialect): scanned like any other;
//   - same format, event stream: forwarded as it arrives, usage read on the side, scanned
//     event by event with a look-behind (scan-output.ts);
//   - same format, JSON: read whole (bounded) for its usage, scanned, sent unchanged;
//   - same format, Bedrock's binary frames: usage read on the side (tap-frame-usage.ts), held and
//     scanned frame by frame, relayed as they are;
//   - same format, GenAI's JSON array (no alt=sse): relayed as it is, usage read on the side
//     (tap-array-usage.ts), the record says unscanned;
//   - resource routes: relay-resource.ts (ids remembered, downloads piped through).
// Every relayed stream is tracked on the trace, so the record waits for its end.
import type { CanonicalResponse } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { codecForCall } from '../../formats/codec-registry.js';
import { classifyUpstreamError } from '../../upstream/upstream-client.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import { toAuditTokens } from './audit-tokens.js';
import type { GatewayServices } from '../gateway-services.js';
import type { Governed } from '../govern/govern-request.js';
import type { PipelineResponse } from '../pipeline-types.js';
import { noteHubCost } from './price-call.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import { relayResource } from '../routes/relay-resource.js';
import { readJsonBody } from './read-json-reply.js';
import { relayStream } from './relay-same-dialect.js';
import { tapFrameUsage } from './tap-frame-usage.js';
import { tapArrayUsage } from './tap-array-usage.js';
import type { RelayedOutput } from './relayed-output.js';
import type { RequestTrace } from '../request-trace.js';
import { scanOutputAnswer, scanOutputFrames, scanOutputJson, scanOutputStream } from './scan-output.js';
import { scanErrorBody, scanReplyHeaders } from './scan-provider-reply.js';
import type { TargetReply } from '../attempt/try-target.js';
import { buildClientHeaders } from '../attempt/upstream-headers.js';

export async function relayReply(
  reply: TargetReply, call: InboundCall, governed: Governed, services: GatewayServices, signal: CancelSignal, trace: RequestTrace,
): Promise<PipelineResponse> {
  if (reply.kind === 'answered') return relayAnswered(reply.response, reply.answer, governed, trace);
  const { upstream } = reply;
  // Headers first: every branch below relays some of them.
  scanReplyHeaders(upstream.headers, governed, trace);
  if (upstream.status >= 400) trace.noteOutcome(`upstream_${upstream.status}`);
  if (reply.resource) return relayResource(upstream, { ...reply.resource, ids: services.resourceIds, signal, call, governed }, trace);
  const contentType = String(upstream.headers['content-type'] ?? '');
  const headers = buildClientHeaders(upstream.headers, false);
  // The client's own codec: a failed Responses stream ends with response.failed, a Chat one with its error line.
  const codec = codecForCall(call.dialect, call.operation);
  if (upstream.status < 400 && contentType.includes('text/event-stream')) {
    const relayed = relayStream(upstream.body, {
      codec, hideUsageChunk: reply.hideUsageChunk, signal, relayed: trace.relayOutput(codec), drain: trace.upstreamDrain,
      onFinished: () => trace.noteFinished(),
      onFirstByte: () => trace.noteUpstreamFirstByte(),
      onDone: ({ usage, bytes, failure, afterHangUp }) => {
        const tokens = toAuditTokens(usage);
        trace.noteUsage(tokens);
        if (afterHangUp && tokens?.output !== undefined) trace.noteUsageAfterHangUp();
        governed.settle(tokens);
        trace.noteBytesOut(bytes);
        if (failure) trace.noteOutcome(failure.code);
      },
    });
    return { status: upstream.status, headers, body: trace.trackStream(scanOutputStream(relayed, governed, codec, trace)) };
  }
  if (upstream.status < 400 && call.stream) {
    // Bedrock's frames are read and held like SSE events; GenAI's JSON array (no alt=sse) is not.
    if (codec.streamFraming === 'aws-event-stream') {
      const tapped = tapFrameUsage(upstream.body, codec, (usage, afterHangUp) => noteTappedUsage(usage, afterHangUp, governed, trace), trace.upstreamDrain);
      return { status: upstream.status, headers, body: trace.trackStream(countBytes(scanOutputFrames(tapped, governed, codec, trace), trace, trace.relayOutput(codec))) };
    }
    if (governed.dlp.outputScan) trace.noteWarning('dlp_output_unscanned: binary stream');
    const body = contentType.includes('json') ? tapArrayUsage(upstream.body, codec, (usage, afterHangUp) => noteTappedUsage(usage, afterHangUp, governed, trace), trace.upstreamDrain) : upstream.body;
    return { status: upstream.status, headers, body: trace.trackStream(countBytes(body, trace, trace.relayOutput(codec))) };
  }
  const readStarted = process.hrtime.bigint();
  const json = await readJsonBody(upstream.body, codec, upstream.headers);
  trace.noteUpstreamWait(readStarted);
  const tokens = toAuditTokens(json.usage);
  trace.noteUsage(tokens);
  if (upstream.status < 400) noteHubCost(trace, upstream.headers);
  governed.settle(tokens);
  let body = json.bytes;
  if (upstream.status < 400) scanOutputJson(json.bytes, governed, trace, json.answer);
  else body = scanErrorBody(json.bytes, json.answer, governed, trace);
  trace.noteBytesOut(body.length);
  return { status: upstream.status, headers, body };
}

/** A byte stream's usage, read on the side once it ended (after a hang-up with the answer complete, read on for it). */
function noteTappedUsage(usage: Usage | undefined, afterHangUp: boolean, governed: Governed, trace: RequestTrace): void {
  const tokens = toAuditTokens(usage);
  trace.noteUsage(tokens);
  if (afterHangUp && tokens?.output !== undefined) trace.noteUsageAfterHangUp();
  governed.settle(tokens);
}

/**
 * A translated (or counted) answer is text the provider wrote, scanned like a same-format one:
 * a translated JSON answer on the canonical parts it was encoded from (`answer`), never parsed
 * again; its usage was noted on the trace when it was decoded (forward-translated.ts).
 */
function relayAnswered(response: PipelineResponse, answer: CanonicalResponse | undefined, governed: Governed, trace: RequestTrace): PipelineResponse {
  if (Buffer.isBuffer(response.body)) {
    governed.settle(trace.tokens);
    if (answer) scanOutputAnswer(answer.content, governed, trace);
    else scanOutputJson(response.body, governed, trace);
    return response;
  }
  // A translated stream was held and scanned part by part before its encoder (relay-translated-stream.ts).
  if (isAsyncIterable(response.body)) return { ...response, body: trace.trackStream(settleAfter(response.body, governed, trace)) };
  return response;
}

/** Tokens-per-minute limits learn a translated stream's usage once it has ended. */
async function* settleAfter<T>(body: AsyncIterable<T>, governed: Governed, trace: RequestTrace): AsyncGenerator<T> {
  try {
    yield* body;
  } finally {
    governed.settle(trace.tokens);
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && Symbol.asyncIterator in value;
}

async function* countBytes(body: AsyncIterable<Uint8Array>, trace: RequestTrace, relayed: RelayedOutput | undefined): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      relayed?.addChunk(chunk);
      yield chunk;
    }
  } catch (error) {
    // No in-stream error event exists for these formats: the stream ends where the provider's did.
    trace.noteOutcome(classifyUpstreamError(error).code);
  } finally {
    trace.noteBytesOut(bytes);
  }
}
