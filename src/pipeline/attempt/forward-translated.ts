// Stage 6, attempt, translated: the client and the provider speak different dialects.
//   client body → client codec → canonical request → provider codec → provider body
//   provider response/stream/error → provider codec → canonical → client codec → client
// What a side cannot express is dropped on purpose and noted on the trace
// (audited, counted in metrics); nothing is dropped silently.
import type { CodecContext, DialectCodec, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest } from '../../canonical/request.js';
import type { CanonicalError, CanonicalResponse } from '../../canonical/response.js';
import { GatewayError } from '../../errors.js';
import type { ProviderAdapter, UpstreamCall } from '../../providers/provider-adapter.js';
import { adapterForModel } from '../../providers/registry.js';
import { clientCodecFor, providerSideFor } from '../decode/codec-choice.js';
import { CACHE_MARKER_WARNING, cacheMarkerFor } from '../plan/cache-marker-for.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PipelineRequest, PipelineResponse } from '../pipeline-types.js';
import type { Target } from '../plan/plan-targets.js';
import { readJsonBody } from '../relay/read-json-reply.js';
import { relayTranslatedStream } from '../relay/relay-translated-stream.js';
import type { RequestTrace } from '../request-trace.js';
import { createOutputPartHold } from '../relay/scan-output.js';
import { sendToProvider } from './send-to-provider.js';
import type { AttemptCall } from './attempt-call.js';
import { forwardedHeaderDialect } from '../govern/header-rules.js';
import { toAuditTokens } from '../relay/audit-tokens.js';
import { randomUUID } from 'node:crypto';

const CODEC_CONTEXT: CodecContext = {
  ids: () => randomUUID().replace(/-/g, '').slice(0, 24),
  now: () => Math.floor(Date.now() / 1000),
};

/** The client's answer; `answer`, for a JSON one, the canonical response it was encoded from (stage 7 scans its parts). */
export interface TranslatedReply {
  response: PipelineResponse;
  answer?: CanonicalResponse;
}

export async function forwardTranslated(attempt: AttemptCall, target: Target): Promise<TranslatedReply> {
  const { request, call: inbound, services, trace, governed } = attempt;
  const adapter = adapterForModel(target.provider, target.upstreamModel);
  const clientCodec = clientCodecFor(inbound);
  const provider = providerSideFor(adapter, inbound);
  if (!clientCodec || !provider) {
    throw new GatewayError('GW_ERR_TRANSLATION_UNAVAILABLE', {
      message: `Model "${inbound.model}" is served by ${target.provider.name} (${adapter.dialect} format), which cannot serve ${inbound.operation} from a ${inbound.dialect} client.`,
    });
  }
  const decoded = clientCodec.decodeRequest(request.body, { model: inbound.model ?? '', stream: inbound.stream });
  refuseForcedForeignTool(decoded.value, inbound.dialect, adapter.dialect);
  const encoded = provider.codec.encodeRequest({ ...decoded.value, model: target.upstreamModel ?? decoded.value.model });
  // Betas are Anthropic's own: to another dialect they are dropped, and said so (never forwarded into a 400).
  const betaWarning: TranslationWarning[] = adapter.dialect !== 'anthropic' && request.headers['anthropic-beta'] !== undefined ? [{ code: 'dropped:anthropic-beta' }] : [];
  // A prompt-cache marker (policy cache_marker on) where the client sent none, on the provider's own body.
  const mark = cacheMarkerFor(governed.policies, provider.operation, adapter.dialect, target.upstreamModel);
  const marked = mark === null ? null : mark(encoded.value);
  const markWarning: TranslationWarning[] = marked ? [{ code: CACHE_MARKER_WARNING }] : [];
  noteWarnings(trace, [...decoded.warnings, ...encoded.warnings, ...betaWarning, ...markWarning], services);
  // The client's encoder sees its own request: what only its dialect knows comes back (Codex namespaces).
  const clientContext: CodecContext = { ...CODEC_CONTEXT, request: decoded.value };

  const call: UpstreamCall = { operation: provider.operation, model: target.upstreamModel, stream: inbound.stream };
  const upstream = await sendToProvider(target, {
    call, method: 'POST', clientHeaders: withoutClientDialectHeaders(request.headers, adapter), body: Buffer.from(JSON.stringify(marked ?? encoded.value)), contentType: 'application/json',
  }, services, request.signal, trace);

  if (upstream.status >= 400) {
    trace.noteOutcome(`upstream_${upstream.status}`);
    const { answer } = await readJsonBody(upstream.body, null);
    throw providerError(provider.codec, upstream.status, answer ?? null, upstream.headers['retry-after']);
  }
  const contentType = String(upstream.headers['content-type'] ?? '');
  if (inbound.stream) {
    const stream = relayTranslatedStream(upstream.body, {
      providerCodec: provider.codec, clientCodec, model: inbound.model ?? '', context: clientContext,
      signal: request.signal, relayed: trace.relayOutput(null), drain: trace.upstreamDrain,
      // Output DLP holds canonical parts back before the client's encoder sees them.
      hold: createOutputPartHold(governed, trace),
      onFinished: () => trace.noteFinished(),
      onFirstByte: () => trace.noteUpstreamFirstByte(),
      onDone: ({ usage, bytes, failure, afterHangUp }) => {
        const tokens = toAuditTokens(usage);
        trace.noteUsage(tokens);
        if (afterHangUp && tokens?.output !== undefined) trace.noteUsageAfterHangUp();
        trace.noteBytesOut(bytes);
        if (failure) trace.noteOutcome(failure.code);
      },
    });
    return { response: { status: 200, headers: { 'content-type': clientCodec.name === 'bedrock-converse' ? 'application/vnd.amazon.eventstream' : 'text/event-stream', 'cache-control': 'no-cache' }, body: stream } };
  }
  // Usage comes from the decoded response below, not read a second time on the side.
  const { answer } = await readJsonBody(upstream.body, null, upstream.headers);
  if (!contentType.includes('json')) throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: `The provider answered with ${contentType || 'no content type'}, not JSON.` });
  if (answer === undefined) throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: 'The provider answered with a body that is not JSON.' });
  const response = provider.codec.decodeResponse(answer);
  noteWarnings(trace, response.warnings, services);
  trace.noteUsage(toAuditTokens(response.value.usage));
  const clientBody = clientCodec.encodeResponse({ ...response.value, model: inbound.model ?? response.value.model }, clientContext);
  const out = Buffer.from(JSON.stringify(clientBody));
  trace.noteBytesOut(out.length);
  return { response: { status: 200, headers: { 'content-type': 'application/json' }, body: out }, answer: response.value };
}

/** The provider's refusal, with its honest status, re-encoded later in the client's shape. `body`: as readJsonBody parsed it (null for a non-JSON error page: status alone). */
function providerError(codec: DialectCodec, status: number, body: unknown, retryAfter: string | string[] | undefined): GatewayError {
  const decoded: CanonicalError = codec.decodeError(status, body);
  const after = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  const headers: Record<string, string> = after ? { 'retry-after': after } : decoded.retryAfterSeconds ? { 'retry-after': String(decoded.retryAfterSeconds) } : {};
  return new GatewayError('GW_ERR_UPSTREAM_REJECTED', { status: decoded.status || status, kind: decoded.kind, message: decoded.message, headers });
}

/** A header that belongs to another dialect (anthropic-*, header-rules.ts) means nothing to this provider. */
function withoutClientDialectHeaders(headers: PipelineRequest['headers'], adapter: ProviderAdapter): PipelineRequest['headers'] {
  const kept: PipelineRequest['headers'] = {};
  for (const name in headers) {
    const dialect = forwardedHeaderDialect(name);
    if (dialect === undefined || dialect === adapter.dialect) kept[name] = headers[name];
  }
  return kept;
}

function noteWarnings(trace: RequestTrace, warnings: TranslationWarning[], services: GatewayServices): void {
  for (const warning of warnings) {
    trace.noteWarning(warning.code, { once: true });
    services.metrics.translationDrops.inc({ code: warning.code });
  }
}

/**
 * A built-in tool only the client's own provider runs (OpenAI's web_search, Anthropic's server
 * tools…) is dropped with a `dropped:tool:<type>` warning when merely offered: Codex and Claude Code
 * offer them on every call. Forcing one with tool_choice cannot be honoured elsewhere, so it is a
 * 400 naming the tool, never a silent change of what the client asked for.
 */
function refuseForcedForeignTool(request: CanonicalRequest, clientDialect: string, providerDialect: string): void {
  const forcedBuiltIn = request.extensions.openai?.tool_choice;
  // Only OpenAI's Responses API runs its built-in tools, and a Responses call to it is never translated.
  if (forcedBuiltIn !== undefined) {
    const type = typeof forcedBuiltIn === 'object' && forcedBuiltIn !== null ? String((forcedBuiltIn as { type?: unknown }).type) : String(forcedBuiltIn);
    throw uncarryableTool(type, providerDialect);
  }
  const choice = request.toolChoice;
  if (choice?.type === 'tool' && !(request.tools ?? []).some((tool) => tool.name === choice.name)) {
    throw uncarryableTool(choice.name, providerDialect, `it is not a function tool of this ${clientDialect} request`);
  }
}

function uncarryableTool(name: string, providerDialect: string, why = 'only its own provider runs it'): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', {
    message: `tool_choice forces the tool "${name}", which cannot be carried to this model's provider (${providerDialect} format): ${why}. Offer it as a function tool, or choose a model of that tool's provider.`,
    param: 'tool_choice',
  });
}
