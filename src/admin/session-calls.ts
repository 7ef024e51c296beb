// The calls of one coding-agent session (docs/sessions.md) as `gw audit show --session --json`
// prints them and the console's session timeline draws them: one shape, made here, for both.
// A model call shows its model; a call through /mcp shows `mcp <method>` and `server/tool`.
// The MCP handshake is on the trail like every request, but it is not a call the session made.

/** The fields of a request record a session's calls are read from (file trail and PostgreSQL alike). */
export interface SessionRecord {
  ts: string;
  request_id?: string;
  session?: string;
  agent?: string;
  person?: string;
  team?: string;
  operation?: string;
  model?: string;
  status?: number;
  latency_ms?: number;
  tokens?: { input?: number; output?: number };
  cost?: unknown;
  outcome?: string[];
  data?: Record<string, unknown>;
}

/** One call of a session as shown: a model call or a tool call through /mcp. */
export interface SessionCall {
  ts: string;
  request_id: string | null;
  agent: string | null;
  operation: string;
  /** The model, or for a tool call `server/tool`. */
  target: string | null;
  status: number | null;
  input_tokens: number;
  output_tokens: number;
  cost_nano_usd: number | null;
  outcome: string[];
  /** How long the call took (the record is written when it ends), for the console's time axis. */
  latency_ms: number | null;
}

/** What an MCP call's outcome is when it did not end well (src/mcp/relay-call.ts). */
const MCP_FAILURES = new Set(['tool_error', 'refused', 'blocked', 'not_found', 'unavailable', 'upstream_error']);

export function sessionCallOf(record: SessionRecord): SessionCall {
  const mcp = mcpNote(record);
  const operation = mcp?.method !== undefined ? `mcp ${mcp.method}` : record.operation ?? 'unknown';
  const tool = mcp?.server !== undefined ? `${mcp.server}/${mcp.tool ?? mcp.prompt ?? ''}`.replace(/\/$/, '') : null;
  const outcome = mcp?.status !== undefined && mcp.status !== 'ok' ? [...(record.outcome ?? []), mcp.status] : record.outcome ?? [];
  const nanos = (record.cost as { nano_usd?: unknown } | undefined)?.nano_usd;
  return {
    ts: record.ts, request_id: record.request_id ?? null, agent: record.agent ?? null, operation,
    target: tool ?? record.model ?? null, status: record.status ?? null,
    input_tokens: record.tokens?.input ?? 0, output_tokens: record.tokens?.output ?? 0,
    cost_nano_usd: typeof nanos === 'number' ? nanos : null, outcome: [...new Set(outcome)],
    latency_ms: typeof record.latency_ms === 'number' ? record.latency_ms : null,
  };
}

/** An MCP client's handshake, stream probes and notifications are on the trail, but are not calls a session made. */
export function isHandshake(record: SessionRecord): boolean {
  const method = mcpNote(record)?.method;
  // A GET or DELETE on /mcp (the SDK probing for a stream, or closing): refused with 405, no message in it.
  if (record.operation === 'mcp' && method === undefined) return true;
  return method === 'initialize' || method === 'ping' || (method?.startsWith('notifications/') ?? false);
}

/** The calls of `session` among `records` (in trail order), handshakes left out. */
export function sessionCallsOf(records: Iterable<SessionRecord>, session: string): SessionCall[] {
  const calls: SessionCall[] = [];
  for (const record of records) if (record.session === session && !isHandshake(record)) calls.push(sessionCallOf(record));
  return calls;
}

/** A call that failed: an HTTP error, or a tool call through /mcp that did not end well. */
export function isFailedCall(call: SessionCall): boolean {
  return (call.status !== null && call.status >= 400) || call.outcome.some((code) => MCP_FAILURES.has(code));
}

/** A tool call proper (tools/call), not a listing. */
export function isToolCall(call: SessionCall): boolean {
  return call.operation === 'mcp tools/call';
}

function mcpNote(record: SessionRecord): Record<string, string | undefined> | null {
  const note = record.data?.mcp;
  if (typeof note !== 'object' || note === null || Array.isArray(note)) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const fields = note as Record<string, unknown>;
  return { method: text(fields.method), server: text(fields.server), tool: text(fields.tool), prompt: text(fields.prompt), status: text(fields.status) };
}
