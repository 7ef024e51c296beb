// Stage 6, attempt: the one way a call reaches a provider. Whatever the route
// (inference, translated, count_tokens, resources, passthrough, model lists), the
// URL and headers are built here from the provider's adapter (client credentials
// out, the provider's in), the body is signed when the provider needs it (SigV4),
// and the wait is timed. Realtime opens a WebSocket instead of sending, so it takes
// the URL and headers from `describeProviderCall` and nothing else.
import type { Readable } from 'node:stream';
import { GatewayError } from '../../errors.js';
import type { ProviderAdapter, UpstreamCall } from '../../providers/provider-adapter.js';
import { signBedrockRequest } from '../../providers/bedrock/sign-request.js';
import { adapterForModel } from '../../providers/registry.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import type { Target } from '../plan/plan-targets.js';
import type { GatewayServices } from '../gateway-services.js';
import type { RequestTrace } from '../request-trace.js';
import { buildUpstreamHeaders } from '../govern/upstream-headers.js';
import { maskUrlCredentials } from '../../mask-url-credentials.js';
import type { ProviderReply } from '../relay/target-reply.js';
import { isPlainObject } from '../../is-plain-object.js';

type IncomingHeaders = Record<string, string | string[] | undefined>;

export interface ProviderRequest {
  call: UpstreamCall;
  method: string;
  /** The client's headers: only the allow-listed ones cross (upstream-headers.ts). */
  clientHeaders: IncomingHeaders;
  body: Buffer | Readable | null;
  /** Set when gw wrote the body (JSON it encoded); else the client's own content-type crosses. */
  contentType?: string;
  /** A streamed upload cut by DLP: its refusal is the answer, not the provider's reaction to the cut. */
  bodyRefusal?: () => GatewayError | null;
  /** A streamed upload's declared length: undici would send it chunked, and upload endpoints prefer the length. */
  contentLength?: string;
}

export interface DescribedCall {
  adapter: ProviderAdapter;
  url: string;
  headers: Record<string, string>;
}

/** The provider's URL and headers for a call; a provider that lacks the operation is refused here. */
export function describeProviderCall(target: Target, call: UpstreamCall, clientHeaders: IncomingHeaders): DescribedCall {
  const adapter = adapterForModel(target.provider, call.model);
  const url = adapter.urlFor(target.provider, call);
  if (url === null) {
    throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', { message: `Provider ${target.provider.name} (${adapter.kind}) does not offer ${call.operation}.` });
  }
  const headers = buildUpstreamHeaders(clientHeaders, {
    auth: adapter.authHeaders(target.provider), defaults: adapter.defaultHeaders(target.provider), countsHops: adapter.countsHops === true,
  });
  return { adapter, url, headers };
}

export async function sendToProvider(target: Target, request: ProviderRequest, services: GatewayServices, signal: CancelSignal, trace: RequestTrace): Promise<ProviderReply> {
  const described = describeProviderCall(target, request.call, request.clientHeaders);
  let headers = described.headers;
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  if (request.contentLength !== undefined) headers['content-length'] = request.contentLength;
  const body = finishBody(described.adapter, request);
  const { aws, google } = target.provider;
  // A short-lived token (Vertex AI), minted or taken from the cache only when the call is ready to leave.
  if (google) headers.authorization = `Bearer ${await providerToken(target, services)}`;
  if (aws && Buffer.isBuffer(body)) {
    // SigV4 covers the body, so Bedrock calls are signed here, once the body is final.
    const signed = await signBedrockRequest({ url: described.url, method: request.method, headers, body, region: aws.region, credentials: aws.credentials });
    const { host: _host, ...withoutHost } = signed;
    headers = withoutHost;
  }
  const started = process.hrtime.bigint();
  trace.noteUpstreamSent();
  try {
    const reply = await services.upstream.send({ url: described.url, method: request.method, headers, body, signal });
    const refusal = request.bodyRefusal?.();
    if (refusal) { reply.body.destroy(); throw refusal; }
    return reply;
  } catch (error) {
    throw request.bodyRefusal?.() ?? nameUnreachable(error, target);
  } finally {
    trace.noteUpstreamWait(started);
  }
}

/** The provider's last word on a JSON body gw wrote (finishBody); other bodies leave as they are. */
function finishBody(adapter: ProviderAdapter, request: ProviderRequest): ProviderRequest['body'] {
  const { body } = request;
  if (adapter.finishBody === undefined || !Buffer.isBuffer(body)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  return isPlainObject(parsed) ? Buffer.from(JSON.stringify(adapter.finishBody(parsed, request.call))) : body;
}

async function providerToken(target: Target, services: GatewayServices): Promise<string> {
  const { google, name } = target.provider;
  if (!services.providerTokens || !google) throw new GatewayError('GW_ERR_PROVIDER_TOKEN_UNAVAILABLE', { message: `Provider ${name} needs an access token, and this gw has no token service.` });
  return services.providerTokens.tokenFor({ provider: name, google });
}

/**
 * "Could not be reached" names the culprit: the provider and its base URL (password
 * masked, query dropped), or, on a sidecar, the gw hub it forwards to. Same code, so
 * fallbacks and cut-call settling treat it as before.
 */
function nameUnreachable(error: unknown, target: Target): unknown {
  if (!(error instanceof GatewayError) || error.code !== 'GW_ERR_UPSTREAM_UNREACHABLE') return error;
  const reason = /\(([A-Z_]+)\)\.$/.exec(error.message)?.[1];
  const because = reason ? ` (${reason})` : '';
  const { provider } = target;
  const where = shownBaseUrl(provider.baseUrl);
  const message = provider.kind === 'gateway' && provider.name === 'hub'
    ? `The gw hub ${where} could not be reached${because}: is it running? This sidecar forwards every call there.`
    : `Provider ${provider.name} (${where}) could not be reached${because}: is it running? Check it with gw providers test ${provider.name}.`;
  return new GatewayError('GW_ERR_UPSTREAM_UNREACHABLE', { message, cause: error.cause ?? error });
}

function shownBaseUrl(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return 'with an unreadable base URL';
  const url = new URL(baseUrl);
  return maskUrlCredentials(`${url.protocol}//${url.username ? `${url.username}:${url.password}@` : ''}${url.host}${url.pathname.replace(/\/+$/, '')}`);
}
