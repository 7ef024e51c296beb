// Headers that cross the gateway. Upstream requests are built from an allow-list
// (header-rules.ts, also served as GET /protocol): client credentials, cookies, Host,
// hop-by-hop headers (and any header named in Connection) never leave; the provider's
// own credential is added afterwards.
// Responses drop hop-by-hop headers and cookies too.
import { GatewayError } from '../../errors.js';
import { isForwardedHeader } from './header-rules.js';

// RFC 9110 §7.6.1, plus headers Node/undici handle themselves.
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade', 'proxy-authorization',
  'proxy-authenticate', 'trailer', 'host', 'content-length', 'set-cookie', 'date',
]);

/** Counts the gateways a request has crossed, so a chain that loops ends instead of spinning. */
const HOPS_HEADER = 'x-gw-hops';
const MAX_HOPS = 8;
export const GATEWAY_VERSION = '0.1.0';
const GATEWAY_USER_AGENT = `gw/${GATEWAY_VERSION}`;

type IncomingHeaders = Record<string, string | string[] | undefined>;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

const NONE: ReadonlySet<string> = new Set();
const KEEP_ALIVE: ReadonlySet<string> = new Set(['keep-alive']);

function namedInConnection(headers: IncomingHeaders): ReadonlySet<string> {
  const connection = single(headers.connection);
  // Usually absent or a bare keep-alive: no Set, split or closures on every request and response.
  if (connection === undefined || connection === '' || connection === 'keep-alive') return connection === 'keep-alive' ? KEEP_ALIVE : NONE;
  return new Set(connection.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean));
}


function readHops(headers: IncomingHeaders): number {
  const hops = Number(single(headers[HOPS_HEADER]) ?? 0);
  if (!Number.isInteger(hops) || hops < 0) return 0;
  if (hops >= MAX_HOPS) throw new GatewayError('GW_ERR_UPSTREAM_LOOP', { message: `The request has passed through ${hops} gateways; refusing to forward it again (loop?).` });
  return hops;
}

/**
 * The client's header values that go upstream, by name: the allow-listed headers and the
 * User-Agent (sent with gw's suffix). What DLP scans (govern-request.ts) and what
 * buildUpstreamHeaders copies are this one list, so a header added to the allow-list is scanned too.
 */
export function forwardedClientHeaders(client: IncomingHeaders): Record<string, string> {
  const dropped = namedInConnection(client);
  const headers: Record<string, string> = {};
  // for…in over the parsed headers (a plain object) instead of Object.entries: no array of pairs per request.
  for (const name in client) {
    if (!isForwardedHeader(name) || dropped.has(name)) continue;
    const text = single(client[name]);
    if (text !== undefined) headers[name] = text;
  }
  const clientAgent = single(client['user-agent']);
  if (clientAgent) headers['user-agent'] = clientAgent;
  return headers;
}

export interface UpstreamHeaderSource {
  auth: Record<string, string>;
  defaults: Record<string, string>;
  /** Another gw: the hop count goes to it (and only to it), so a chain of gateways that loops ends. */
  countsHops?: boolean;
}

export function buildUpstreamHeaders(client: IncomingHeaders, provider: UpstreamHeaderSource): Record<string, string> {
  const headers = forwardedClientHeaders(client);
  const clientAgent = headers['user-agent'];
  for (const name in provider.defaults) if (name !== 'user-agent') headers[name] ??= provider.defaults[name]!;
  // The client's own agent first, as Claude Code's gateway protocol asks; gw says it was there after it.
  headers['user-agent'] = clientAgent ? `${clientAgent} ${GATEWAY_USER_AGENT}` : GATEWAY_USER_AGENT;
  // Usage and error parsing read the body, so it must not come back compressed.
  headers['accept-encoding'] = 'identity';
  // Read (and a loop refused) on every call; sent on only to another gw.
  const hops = readHops(client) + 1;
  if (provider.countsHops === true) headers[HOPS_HEADER] = String(hops);
  // The provider's credential last, over anything of the same name (this object is ours alone).
  for (const name in provider.auth) headers[name] = provider.auth[name]!;
  return headers;
}

/** The provider's response headers minus hop-by-hop ones and cookies; the body length may change. */
export function buildClientHeaders(upstream: IncomingHeaders, keepLength: boolean): Record<string, string> {
  const dropped = namedInConnection(upstream);
  const headers: Record<string, string> = {};
  for (const name in upstream) {
    if (HOP_BY_HOP.has(name) || dropped.has(name)) continue;
    const text = single(upstream[name]);
    if (text !== undefined) headers[name] = text;
  }
  // gw's own x-request-id names the audit record; the provider's stays visible under another name.
  if (headers['x-request-id'] !== undefined) {
    headers['x-upstream-request-id'] = headers['x-request-id'];
    delete headers['x-request-id'];
  }
  const length = single(upstream['content-length']);
  if (keepLength && length !== undefined) headers['content-length'] = length;
  return headers;
}
