// One try of one routing target (attempt-targets.ts calls it per attempt):
// translate when the dialects differ, else encode the client's bytes with only
// the model patched, and call the provider. The result's status is known before
// any byte is relayed, so a failed try can still be dropped for the next target.
import { adapterFor } from '../providers/registry.js';
import { callProvider, type ProviderReply } from './call-provider.js';
import type { Target } from './choose-target.js';
import { COUNT_OPERATIONS, countTokens } from './count-tokens.js';
import { encodeUpstreamCall, type EncodedCall } from './encode-upstream-call.js';
import { forwardTranslated } from './forward-translated.js';
import type { GatewayServices } from './gateway-services.js';
import type { PipelineFacts, PipelineRequest, PipelineResponse } from './pipeline-types.js';
import type { InboundCall } from './read-inbound-call.js';
import type { CancelSignal } from '../upstream/cancel-signal.js';

export type TargetReply =
  | { kind: 'translated'; status: number; response: PipelineResponse; discard(): void }
  | { kind: 'same-format'; status: number; retryAfter?: string; call: EncodedCall; upstream: ProviderReply; discard(): void };

export async function tryTarget(request: PipelineRequest, inbound: InboundCall, target: Target, services: GatewayServices, facts: PipelineFacts, signal: CancelSignal): Promise<TargetReply> {
  const attemptRequest: PipelineRequest = { ...request, signal };
  const adapter = adapterFor(target.provider.kind);
  // Different dialects on the two sides: translate through the canonical model. The mock speaks
  // every dialect except Responses, which it serves as Chat through the translator.
  const mockResponses = target.provider.kind === 'mock' && inbound.operation === 'responses.create';
  if (mockResponses || (adapter.dialect !== 'any' && adapter.dialect !== inbound.dialect)) {
    const response = COUNT_OPERATIONS.has(inbound.operation)
      ? await countTokens(attemptRequest, inbound, target, adapter, services)
      : await forwardTranslated(attemptRequest, inbound, target, adapter, services, facts);
    return { kind: 'translated', status: response.status, response, discard: () => discard(response.body) };
  }
  // 3. encode: the client's own bytes with only the model patched (same format).
  const call = encodeUpstreamCall(attemptRequest, inbound, target, adapter);
  // 4. provider: undici upstream, or the mock in-process.
  const started = process.hrtime.bigint();
  const upstream = await callProvider(call, target.provider, services.upstream, signal);
  facts.upstreamNanos += process.hrtime.bigint() - started;
  const retryAfter = upstream.headers['retry-after'];
  return {
    kind: 'same-format', status: upstream.status, call, upstream, discard: () => discard(upstream.body),
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  };
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
