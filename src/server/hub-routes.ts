// The hub's device-login routes (RFC 8628, RFC 8693, RFC 7009) on fastify. They
// take no virtual key (a person logging in has none yet), so they sit outside the
// door's authentication; each is bounded (16 KiB forms) and rate-limited inside
// src/hub. Their answers never carry a secret beyond the one the caller is owed.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_CODE_GRANT, pollDeviceCode, revokeToken, startDeviceAuthorization, startGatewayAuthorization } from '../hub/device-authorization.js';
import { REFRESH_TOKEN_GRANT, refreshSignIn } from '../hub/gateway-sign-in.js';
import type { HubContext } from '../hub/hub-context.js';
import { jsonReply, oauthError, type HubReply, type HubRequest } from '../hub/hub-reply.js';
import { TOKEN_EXCHANGE_GRANT, exchangeToken } from '../hub/token-exchange.js';
import { mountWitnessRoutes } from './witness-routes.js';
import { mountManagedSettingsRoute } from './managed-settings-route.js';
import { finishOidc, showEntryPage, submitDeviceForm } from '../hub/verification-page.js';
import type { HttpMethod, RouteEntry } from '../pipeline/route-table.js';

const FORM_LIMIT_BYTES = 16 * 1024;
/** The version of Anthropic's gateway protocol gw speaks (the reference gateway in Claude Code 2.1.197 names 1). */
const GATEWAY_PROTOCOL_VERSION = 1;

type Handler = (hub: HubContext, request: HubRequest) => HubReply | Promise<HubReply>;

async function readForm(request: FastifyRequest): Promise<URLSearchParams | null> {
  if (request.method === 'GET') return new URLSearchParams(request.url.split('?')[1] ?? '');
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) return null;
  // The body parser hands over a body that fits its buffer as bytes (rawBody), a larger one as a stream.
  const buffered = request.gw?.rawBody;
  if (buffered) return buffered.length > FORM_LIMIT_BYTES ? null : new URLSearchParams(buffered.toString('utf8'));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.body as Readable) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function readCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0) cookies[pair.slice(0, separator).trim()] = pair.slice(separator + 1).trim();
  }
  return cookies;
}

function baseUrlOf(hub: HubContext, request: FastifyRequest): string {
  return hub.store.snapshot().settings.public_url ?? `${request.protocol}://${request.host}`;
}

function token(hub: HubContext, request: HubRequest): Promise<HubReply> | HubReply {
  const grant = request.params.get('grant_type');
  if (grant === DEVICE_CODE_GRANT) return pollDeviceCode(hub, request);
  if (grant === TOKEN_EXCHANGE_GRANT) return exchangeToken(hub, request);
  if (grant === REFRESH_TOKEN_GRANT) return refreshSignIn(hub, request);
  return oauthError('unsupported_grant_type', `grant_type must be ${DEVICE_CODE_GRANT}, ${REFRESH_TOKEN_GRANT} or ${TOKEN_EXCHANGE_GRANT}.`);
}

function metadata(hub: HubContext, request: HubRequest): HubReply {
  const base = request.baseUrl;
  // RFC 8414 metadata, which is also the discovery document of Anthropic's gateway protocol
  // (Claude Code's /login): its device endpoint issues short access tokens with a refresh token.
  // gw login keeps /oauth/device/code and its long atu- token (docs/claude-code-sign-in.md).
  return jsonReply(200, {
    issuer: base, device_authorization_endpoint: `${base}/oauth/device_authorization`, token_endpoint: `${base}/oauth/token`,
    revocation_endpoint: `${base}/oauth/revoke`, grant_types_supported: [DEVICE_CODE_GRANT, REFRESH_TOKEN_GRANT, TOKEN_EXCHANGE_GRANT],
    response_types_supported: [], token_endpoint_auth_methods_supported: ['none'],
    gateway_protocol_version: GATEWAY_PROTOCOL_VERSION,
    device_login: hub.store.snapshot().settings.device_login,
  });
}

const HUB_ROUTES: Array<[HttpMethod, string, string, Handler]> = [
  ['POST', '/oauth/device/code', 'hub.device_code', startDeviceAuthorization],
  ['POST', '/oauth/device_authorization', 'hub.device_authorization', startGatewayAuthorization],
  ['POST', '/oauth/token', 'hub.token', token],
  ['POST', '/oauth/revoke', 'hub.revoke', revokeToken],
  ['GET', '/device', 'hub.device_page', showEntryPage],
  ['POST', '/device', 'hub.device_form', submitDeviceForm],
  ['GET', '/device/oidc/callback', 'hub.oidc_callback', finishOidc],
  ['GET', '/.well-known/oauth-authorization-server', 'hub.metadata', metadata],
];

export function registerHubRoutes(app: FastifyInstance, hub: HubContext): void {
  for (const [method, url, operation, handler] of HUB_ROUTES) {
    const route: RouteEntry = { method, url, dialect: 'operational', operation, authenticated: false, jsonBody: false };
    app.route({ method, url, config: { route }, handler: (request, reply) => serveHub(hub, handler, request, reply) });
  }
  // Unlike the login routes these take a credential: the door names the sender.
  if (hub.witness) mountWitnessRoutes(app, hub.witness);
  mountManagedSettingsRoute(app, hub, (request) => baseUrlOf(hub, request));
}

async function serveHub(hub: HubContext, handler: Handler, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const params = await readForm(request);
  if (params === null) return send(reply, oauthError('invalid_request', 'Send an application/x-www-form-urlencoded body of at most 16 KiB.'));
  const hubRequest: HubRequest = {
    ip: request.ip, userAgent: request.headers['user-agent'] ?? '', params,
    cookies: readCookies(request.headers.cookie), baseUrl: baseUrlOf(hub, request),
  };
  const answer = await handler(hub, hubRequest);
  if (answer.polling) request.gw?.trace.noteOutcome(answer.polling);
  return send(reply, answer);
}

function send(reply: FastifyReply, answer: HubReply): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}
