// The only importer of undici for data-plane calls: one keep-alive Agent with
// connect, header and idle time-outs, no redirects, and the caller's cancel signal
// wired through, so a client that leaves cancels the provider call at any moment.
import { Agent, errors as undiciErrors, request } from 'undici';
import type { Readable } from 'node:stream';
import { GatewayError } from '../errors.js';
import type { CancelSignal } from './cancel-signal.js';
import { openUpstreamWebSocket, type UpstreamSocketOpening } from './upstream-websocket.js';

export interface UpstreamTimeouts {
  connectMs: number;
  /** Wait for the response headers: long, since reasoning models think before the first byte. */
  headersMs: number;
  /** Longest silence between two body chunks. */
  bodyIdleMs: number;
}

const DEFAULT_UPSTREAM_TIMEOUTS: UpstreamTimeouts = { connectMs: 10_000, headersMs: 600_000, bodyIdleMs: 120_000 };

export interface UpstreamRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | string | Readable | null;
  signal: CancelSignal;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** A provider WebSocket handshake (realtime), through the same client so its wrappers apply (upstream-websocket.ts). */
export type OpenWebSocket = (url: string, headers: Record<string, string>, protocols: string[], connectTimeoutMs: number) => Promise<UpstreamSocketOpening>;

export interface UpstreamClient {
  send(call: UpstreamRequest): Promise<UpstreamResponse>;
  /** Absent on test doubles: callers then open the socket directly. */
  openWebSocket?: OpenWebSocket;
  close(): Promise<void>;
}

export function createUpstreamClient(timeouts: UpstreamTimeouts = DEFAULT_UPSTREAM_TIMEOUTS): UpstreamClient {
  const agent = new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyIdleMs,
    keepAliveTimeout: 30_000,
    connections: 256,
  });
  return {
    async send(call) {
      try {
        const target = splitUrl(call.url);
        const body = call.body ?? undefined;
        // undici takes any signal with aborted, reason and add/removeEventListener (api-request.js); its types say AbortSignal.
        const signal = call.signal as AbortSignal;
        // undici's top-level request() parses the URL string on every call; the split is cached per URL.
        const response = target
          ? await agent.request({ method: (call.method || (call.body ? 'PUT' : 'GET')), headers: call.headers, body, signal, origin: target.origin, path: target.path })
          : await request(call.url, { method: call.method as 'POST', headers: call.headers, body, signal, dispatcher: agent });
        return { status: response.statusCode, headers: response.headers, body: response.body };
      } catch (error) {
        throw classifyUpstreamError(error);
      }
    },
    openWebSocket: openUpstreamWebSocket,
    close: () => agent.close(),
  };
}

interface SplitUrl { origin: string; path: string }

/** Provider URLs repeat (one per provider and operation); bounded in case query strings vary. */
const splitUrls = new Map<string, SplitUrl>();
const SPLIT_URL_LIMIT = 1000;

/**
 * The origin and path undici's request(url) would derive; null for anything but plain
 * http(s) URLs, which keep going through request(url) and its own checks and errors.
 */
function splitUrl(url: string): SplitUrl | null {
  const known = splitUrls.get(url);
  if (known) return known;
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') return null;
  const split = { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
  if (splitUrls.size >= SPLIT_URL_LIMIT) splitUrls.clear();
  splitUrls.set(url, split);
  return split;
}

/** Maps an undici or socket failure onto the catalog: refused → 502, time-out → 504. */
export function classifyUpstreamError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.ConnectTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', { cause: error });
  }
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  const reason = code ? ` (${code})` : '';
  return new GatewayError('GW_ERR_UPSTREAM_UNREACHABLE', { message: `The provider could not be reached${reason}.`, cause: error });
}
