// The one list of what gw does with each request header on the way to a provider:
// forwarded unchanged, consumed (read by gw, never sent on), or added by gw. The
// upstream headers (upstream-headers.ts), the translated call's dialect filter
// (forward-translated.ts) and GET /protocol (render-protocol.ts) all read it, so
// what gw says it forwards is what it forwards. Claude Code's gateway protocol
// (`claude gateway`, GET /protocol there) asks for anthropic-*, x-stainless-* and
// the user-agent to pass through; the rest follows each provider SDK's needs.
import type { WireDialect } from '../../canonical/dialect.js';

export type HeaderTreatment = 'forward' | 'consume' | 'add';

export interface HeaderRule {
  /** A header name, or a prefix ending in `-` when `prefix` is set. */
  name: string;
  prefix?: true;
  treatment: HeaderTreatment;
  /** Forwarded only to a provider that speaks this dialect (a translated call drops it). */
  dialect?: WireDialect;
  /** What gw does with it, for GET /protocol. */
  note: string;
}

export const HEADER_RULES: readonly HeaderRule[] = [
  { name: 'content-type', treatment: 'forward', note: 'unchanged; gw sets its own when it re-encodes a translated body' },
  { name: 'accept', treatment: 'forward', note: 'unchanged' },
  { name: 'anthropic-', prefix: true, treatment: 'forward', dialect: 'anthropic', note: 'unchanged (anthropic-version, anthropic-beta, …); dropped only when the call is translated for a provider that is not Anthropic' },
  { name: 'x-stainless-', prefix: true, treatment: 'forward', note: 'unchanged, translated calls included (the Stainless SDKs of Anthropic and OpenAI both send them)' },
  { name: 'user-agent', treatment: 'forward', note: 'kept, with ` gw/<version>` appended' },
  { name: 'openai-beta', treatment: 'forward', note: 'unchanged' },
  { name: 'openai-organization', treatment: 'forward', note: 'unchanged' },
  { name: 'openai-project', treatment: 'forward', note: 'unchanged' },
  { name: 'idempotency-key', treatment: 'forward', note: 'unchanged' },
  { name: 'x-goog-api-client', treatment: 'forward', note: 'unchanged' },
  { name: 'x-server-timeout', treatment: 'forward', note: 'unchanged' },
  { name: 'authorization', treatment: 'consume', note: "the caller's gw credential (key or personal token); the provider's own credential is sent instead" },
  { name: 'x-api-key', treatment: 'consume', note: "the caller's gw key; the provider's own credential is sent instead" },
  { name: 'x-goog-api-key', treatment: 'consume', note: "the caller's gw key; the provider's own credential is sent instead" },
  { name: 'x-gw-vk', treatment: 'consume', note: "a sidecar's session credential" },
  { name: 'x-claude-code-session-id', treatment: 'consume', note: 'names the session in the trail and keeps its turns on one target' },
  { name: 'x-gw-hops', treatment: 'consume', note: 'gateways crossed so far; 8 or more is refused as a loop (508)' },
  { name: 'cookie', treatment: 'consume', note: 'never forwarded' },
  { name: 'connection', treatment: 'consume', note: 'hop-by-hop (RFC 9110 §7.6.1), with every header it names' },
  { name: 'accept-encoding', treatment: 'add', note: 'always `identity`: gw reads the answer (usage, output DLP) as it streams, and the client receives it uncompressed' },
  { name: 'x-gw-hops', treatment: 'add', note: 'the count plus one, only to another gw (a provider of kind gateway); never to Anthropic or any other provider' },
  { name: 'x-api-key / authorization', treatment: 'add', note: "the provider's credential, over anything of the same name" },
  { name: 'anthropic-version', treatment: 'add', note: 'to Anthropic, `2023-06-01` when the client sent none' },
];

const FORWARDED = HEADER_RULES.filter((rule) => rule.treatment === 'forward');

/** Exact names gw forwards (user-agent apart: it gets gw's suffix). */
export const FORWARDED_REQUEST_HEADERS: ReadonlySet<string> = new Set(FORWARDED.filter((rule) => !rule.prefix && rule.name !== 'user-agent').map((rule) => rule.name));
/** Name prefixes gw forwards: every header that starts with one. */
const FORWARDED_REQUEST_PREFIXES: readonly string[] = FORWARDED.filter((rule) => rule.prefix).map((rule) => rule.name);

/** Whether a client header (lower-case) crosses to a provider. */
export function isForwardedHeader(name: string): boolean {
  if (FORWARDED_REQUEST_HEADERS.has(name)) return true;
  for (const prefix of FORWARDED_REQUEST_PREFIXES) if (name.startsWith(prefix)) return true;
  return false;
}

/** The dialect a forwarded header belongs to, if any: a translated call to another dialect drops it. */
export function forwardedHeaderDialect(name: string): HeaderRule['dialect'] {
  for (const rule of FORWARDED) if (rule.prefix ? name.startsWith(rule.name) : name === rule.name) return rule.dialect;
  return undefined;
}
