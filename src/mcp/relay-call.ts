// One relayed MCP message's record: what the request's audit record says about it (the
// method, the server and the tool or prompt it names, its status and duration, where a DLP
// block was found) and, for tools/call, the metrics. Names only, never arguments, results or
// URIs. SDK-free: the route records a message blocked at the door with it too.
import type { AuditValue } from '../audit/record.js';
import type { RequestTrace } from '../pipeline/request-trace.js';
import type { McpBlock } from './scan-mcp-message.js';
import type { WithheldItem } from './screen-listing.js';
import type { UpstreamServers } from './upstream-servers.js';

export const SEPARATOR = '__';
export const RESOURCE_SCHEME = 'gw-mcp://';

export type McpCallOutcome = 'ok' | 'tool_error' | 'refused' | 'blocked' | 'not_found' | 'unavailable' | 'upstream_error' | 'guardrail_blocked' | 'guardrail_unavailable';

/** The catalog code (src/errors.ts) a failed call's audit record carries in its outcome. */
const OUTCOME_CODES: Partial<Record<McpCallOutcome, string>> = {
  not_found: 'GW_ERR_MCP_NOT_FOUND', unavailable: 'GW_ERR_MCP_SERVER_UNAVAILABLE', upstream_error: 'mcp_upstream_error', tool_error: 'mcp_tool_error',
  refused: 'GW_ERR_POLICY_DENIED', blocked: 'GW_ERR_DLP_BLOCKED',
  guardrail_blocked: 'GW_ERR_GUARDRAIL_BLOCKED', guardrail_unavailable: 'GW_ERR_GUARDRAIL_UNAVAILABLE',
};

export interface RecordDeps {
  upstream: UpstreamServers;
  trace: RequestTrace;
  /**
   * One tool call's end, for the metrics (gw_mcp_calls_total, gw_mcp_call_duration_seconds).
   * The labels are bounded: a server gw does not front is "(unknown)", a tool its server did
   * not list is "(unlisted)", so a caller cannot mint label values with made-up names.
   */
  countCall(server: string, tool: string, outcome: McpCallOutcome, seconds: number): void;
}

/** `SERVER__NAME` split, or null when the name carries no server. */
export function splitName(name: unknown): { server: string; name: string } | null {
  if (typeof name !== 'string') return null;
  const at = name.indexOf(SEPARATOR);
  return at <= 0 ? null : { server: name.slice(0, at), name: name.slice(at + SEPARATOR.length) };
}

/** `gw-mcp://SERVER/<the server's URI, encoded>` split, or null. */
export function splitResourceUri(uri: unknown): { server: string; uri: string } | null {
  const match = typeof uri === 'string' ? /^gw-mcp:\/\/([^/]+)\/(.+)$/.exec(uri) : null;
  if (!match) return null;
  try {
    return { server: match[1]!, uri: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

type Params = Record<string, unknown> | undefined;

/** The names a record carries for a method: the server, and the tool or prompt (a resource's URI is content, not a name). */
function namesOf(method: string, params: Params): Record<string, string> {
  if (method === 'tools/call' || method === 'prompts/get') {
    const split = splitName(params?.name);
    return split === null ? {} : { server: split.server, [method === 'tools/call' ? 'tool' : 'prompt']: split.name };
  }
  if (method === 'resources/read') {
    const split = splitResourceUri(params?.uri);
    return split === null ? {} : { server: split.server };
  }
  if (method === 'completion/complete') {
    const ref = params?.ref as { name?: unknown; uri?: unknown } | undefined;
    const server = splitName(ref?.name)?.server ?? splitResourceUri(ref?.uri)?.server;
    return server === undefined ? {} : { server };
  }
  return {};
}

export class RelayCall {
  readonly #started = process.hrtime.bigint();
  readonly #fields: Record<string, AuditValue>;
  #settled = false;

  constructor(private readonly deps: RecordDeps, readonly method: string, params: Params, block: McpBlock | null = null) {
    // A name that holds the block is not recorded (it is the value DLP matched); one it only redacted is redacted already.
    const names = block !== null && /^request\.params\.(name|ref|uri)\b/.test(block.place) ? {} : namesOf(method, params);
    this.#fields = { method, ...names };
    if (block !== null) this.#fields.dlp_place = block.place;
    deps.trace.noteData('mcp', { ...this.#fields });
  }

  /** The first outcome is the message's: noted on the record with its catalog code, and counted for tools/call. */
  settle(outcome: McpCallOutcome): void {
    if (this.#settled) return;
    this.#settled = true;
    const ms = Number(process.hrtime.bigint() - this.#started) / 1e6;
    const { dlp_place: place, ...fields } = this.#fields;
    this.deps.trace.noteData('mcp', { ...fields, status: outcome, duration_ms: Math.round(ms), ...(place === undefined ? {} : { dlp_place: place }) });
    const code = OUTCOME_CODES[outcome];
    if (code !== undefined && !this.deps.trace.outcome.includes(code)) this.deps.trace.noteOutcome(code);
    if (this.method !== 'tools/call') return;
    const server = String(this.#fields.server ?? '');
    const known = this.deps.upstream.has(server);
    const tool = String(this.#fields.tool ?? '');
    this.deps.countCall(known ? server : '(unknown)', known && this.deps.upstream.listed(server, tool) ? tool : '(unlisted)', outcome, ms / 1000);
  }

  /** A place found later (a result's block) joins the record. */
  notePlace(place: string): void {
    this.#fields.dlp_place = place;
  }

  /** The items DLP left out of a listing (screen-listing.ts): rule, place and the name when it holds no match. */
  noteWithheld(items: readonly WithheldItem[]): void {
    this.#fields.dlp_withheld = items.map((item) => ({ ...item }));
  }
}
