// Stage 6, attempt, for one routing target (attempt-targets.ts calls it per target):
// encode the call for this provider and send it (send-to-provider.ts). Four ways:
//   - same format: the client's bytes with only the model patched (encode-upstream-call.ts);
//   - a resource or media route: the client's path under the provider's API root (forward-resource.ts);
//   - translated: the provider speaks another dialect, or lacks the operation natively
//     (forward-translated.ts; count_tokens in count-tokens.ts);
// The reply's status is known before any byte is relayed, so a failed try can still be
// dropped for the next target.
import { adapterForModel } from '../../providers/registry.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import { COUNT_OPERATIONS, countTokens } from './count-tokens.js';
import { encodeUpstreamCall } from './encode-upstream-call.js';
import { CACHE_MARKER_WARNING, cacheMarkerFor, withMarkedBody } from '../plan/cache-marker-for.js';
import { encodeResourceCall } from './forward-resource.js';
import { forwardTranslated, type TranslatedReply } from './forward-translated.js';
import type { GatewayServices } from '../gateway-services.js';
import type { AttemptCall } from './attempt-call.js';
import type { PipelineRequest } from '../pipeline-types.js';
import type { Target } from '../plan/plan-targets.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import type { RequestTrace } from '../request-trace.js';
import { sendToProvider } from './send-to-provider.js';
import type { TargetReply } from '../relay/target-reply.js';
import { copyWith } from '../../copy-with.js';

/** One try of `attempt` against `target`, cancelled by `signal` (the target's time-out or the client's). */
export async function tryTarget(attempt: AttemptCall, target: Target, signal: CancelSignal): Promise<TargetReply> {
  const { call, services, trace, governed } = attempt;
  const attemptRequest: PipelineRequest = copyWith(attempt.request, { signal });
  const thisTry: AttemptCall = copyWith(attempt, { request: attemptRequest });
  if (needsTranslation(call, target)) {
    const { response, answer }: TranslatedReply = COUNT_OPERATIONS.has(call.operation)
      ? { response: await countTokens(thisTry, target) }
      : await forwardTranslated(thisTry, target);
    return { kind: 'answered', status: response.status, response, answer, discard: () => discard(response.body) };
  }
  const mark = cacheMarkerFor(governed.policies, call.resource?.operation ?? call.operation, adapterForModel(target.provider, target.upstreamModel).dialect, target.upstreamModel);
  const encoded = call.resource
    ? encodeResourceCall(withMarkedBody(attemptRequest, mark, () => noteMarker(trace, services)), call, target)
    : encodeUpstreamCall(attemptRequest, call, target, mark);
  // A held call cut before its answer is priced by these (settle-cut-call.ts): a multipart form's model is only here.
  if (encoded.resource && trace.budget) trace.noteRequestFields(encoded.resource.fields);
  for (const warning of 'warnings' in encoded ? encoded.warnings ?? [] : []) {
    trace.noteWarning(warning.code, { once: true });
    services.metrics.translationDrops.inc({ code: warning.code });
  }
  const upstream = await sendToProvider(target, encoded.request, services, signal, trace);
  const retryAfter = upstream.headers['retry-after'];
  return {
    kind: 'provider', status: upstream.status, upstream, hideUsageChunk: encoded.hideUsageChunk, resource: encoded.resource,
    discard: () => discard(upstream.body),
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  };
}

function noteMarker(trace: RequestTrace, services: GatewayServices): void {
  trace.noteWarning(CACHE_MARKER_WARNING, { once: true });
  services.metrics.translationDrops.inc({ code: CACHE_MARKER_WARNING });
}

/**
 * Different dialects on the two sides, or a provider without the operation in its own API
 * (the mock has no Responses endpoint): translate through the canonical model.
 */
function needsTranslation(call: InboundCall, target: Target): boolean {
  if (call.operation === 'passthrough' || (call.resource && !call.translatable)) return false;
  const adapter = adapterForModel(target.provider, target.upstreamModel);
  if (adapter.dialect !== 'any') return adapter.dialect !== call.dialect;
  // A provider of every dialect (the mock, another gw) may still lack an operation natively.
  const probe = { operation: call.operation, model: target.upstreamModel, stream: call.stream, clientPath: '/probe', ...(call.resource ? { resourcePath: '/probe' } : {}) };
  return adapter.urlFor(target.provider, probe) === null;
}

/** Drops a reply's body so its connection is released. */
function discard(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const stream = body as { destroy?: () => void; on?: (event: string, listener: () => void) => void; return?: () => unknown };
  // undici reports a destroyed body as an 'error' (RequestAbortedError): expected here, so heard and dropped.
  if (typeof stream.destroy === 'function') {
    stream.on?.('error', () => {});
    stream.destroy();
  }
  else if (typeof stream.return === 'function') void Promise.resolve(stream.return()).catch(() => undefined);
}
