// Types shared by the fake providers: what a test can ask of them and what they record.
import type { IncomingHttpHeaders } from 'node:http';

export type FakeProviderKind = 'openai' | 'anthropic' | 'gemini' | 'vertex';

/** Faults a test can ask for, per request (setBehaviour or the x-fake-behaviour header as JSON). */
export interface FakeBehaviour {
  /** Answer with this HTTP status and the provider's real error body. */
  status?: number;
  errorMessage?: string;
  /** Sent as retry-after with a 429 (default 1). */
  retryAfterSeconds?: number;
  /** Never send headers; the request stays open until the client gives up. */
  hangBeforeHeaders?: boolean;
  /** Stream this many events, then stay silent with the connection open. */
  hangAfterEvents?: number;
  /** Stream this many events, then destroy the socket (0 on a JSON answer: no answer at all). */
  resetAfterEvents?: number;
  /** Stream one event, then a broken one, then end. */
  malformedSse?: boolean;
  /** Pause between stream events (default from the provider options, ~30 ms). */
  eventDelayMs?: number;
  /** Anthropic: call this tool with this input (when offered, and no tool result is last) instead of the first tool with {text}. */
  toolCall?: { name: string; input: unknown; /** Call the first offered tool whose name ends with `name` (a client names an MCP tool after its server: mcp__gw__notes__echo). */ suffix?: boolean };
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The raw body as received. */
  body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  receivedAt: number;
  /** When the response or the socket closed (Date.now()). */
  closedAt?: number;
  /** True when the connection closed before the fake finished its answer (client abort or a reset fault). */
  aborted: boolean;
  /** The behaviour applied to this request. */
  behaviour: FakeBehaviour;
}

export interface FakeJsonReply {
  type: 'json';
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface FakeStreamReply {
  type: 'stream';
  headers?: Record<string, string>;
  /** Each string is written with its own write(), in order. */
  frames: string[];
  /** What a broken frame looks like in this wire format. */
  malformedFrame: string;
  /** Written once after the frames (Gemini's JSON-array framing closes with "]"). */
  closing?: string;
  opening?: string;
  contentType: string;
}

export type FakeReply = FakeJsonReply | FakeStreamReply;

/** One provider's wire format: routes and its error shape. */
export interface FakeDialect {
  /** undefined when the path is not one of this provider's. */
  route(request: RecordedRequest): FakeReply | undefined;
  createError(status: number, message: string): FakeJsonReply;
  /** An error reply when the credential is missing or wrong, else undefined. */
  authorize(request: RecordedRequest, apiKey: string): FakeJsonReply | undefined;
}

export interface FakeProviderOptions {
  /** Pause between stream events; default 30 ms so a buffering gateway is caught. */
  eventDelayMs?: number;
  /** When set, requests without this key get the provider's real 401/400. */
  apiKey?: string;
  /** Bearer-token providers (Vertex AI): whether a token is one the test's token endpoint minted and still valid; else a 401. */
  acceptsToken?: (token: string) => boolean;
  /** Where the API lives on the server (Claude on Foundry: `/anthropic`): paths outside it get a 404. Recorded paths keep it. */
  root?: string;
}
