// The console's list of recent coding-agent sessions (docs/sessions.md): one row per session
// of the request records read, summed from the same calls `gw audit show --session` lists
// (session-calls.ts), so a row's totals are its timeline's. Both trail readers (the file's
// in-memory summaries, PostgreSQL's rows) hand their records here.
import { isFailedCall, isHandshake, isToolCall, sessionCallOf, type SessionRecord } from './session-calls.js';

export type SessionFilter = Partial<Record<'person' | 'team' | 'since', string>>;

export interface SessionSummary {
  session: string;
  /** Who the session's calls were made for (a session is one person's, but a record may name none). */
  person: string | null;
  team: string | null;
  agents: string[];
  first_ts: string;
  last_ts: string;
  /** Model calls and MCP messages (the handshake left out), as `gw audit show` lists them. */
  calls: number;
  /** MCP tools/call among them. */
  tool_calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Sum of the priced calls; `unpriced` counts the calls with no known price. */
  cost_nano_usd: number;
  unpriced: number;
  errors: number;
}

/** At most this many sessions in one answer. */
export const MAX_SESSIONS = 500;

/** Whether a record may belong to a listed session; the filter applies per record, as in the explorer. */
function sessionRecordMatches(record: SessionRecord, filter: SessionFilter): boolean {
  if (record.session === undefined || isHandshake(record)) return false;
  if (filter.since && record.ts < filter.since) return false;
  if (filter.person && record.person !== filter.person) return false;
  if (filter.team && record.team !== filter.team) return false;
  return true;
}

/** The sessions of `records` (any order), the most recently active first, at most `limit`. */
export function summarizeSessions(records: Iterable<SessionRecord>, filter: SessionFilter, limit: number): SessionSummary[] {
  const sessions = new Map<string, SessionSummary>();
  for (const record of records) {
    if (!sessionRecordMatches(record, filter)) continue;
    const call = sessionCallOf(record);
    let row = sessions.get(record.session!);
    if (!row) {
      row = { session: record.session!, person: null, team: null, agents: [], first_ts: record.ts, last_ts: record.ts, calls: 0, tool_calls: 0, input_tokens: 0, output_tokens: 0, cost_nano_usd: 0, unpriced: 0, errors: 0 };
      sessions.set(record.session!, row);
    }
    row.person ??= record.person ?? null;
    row.team ??= record.team ?? null;
    if (call.agent !== null && !row.agents.includes(call.agent)) row.agents.push(call.agent);
    if (record.ts < row.first_ts) row.first_ts = record.ts;
    if (record.ts > row.last_ts) row.last_ts = record.ts;
    row.calls += 1;
    if (isToolCall(call)) row.tool_calls += 1;
    row.input_tokens += call.input_tokens;
    row.output_tokens += call.output_tokens;
    // A call with a cost but no amount was not priced (unknown stays unknown); an MCP message has no cost at all.
    if (call.cost_nano_usd !== null) row.cost_nano_usd += call.cost_nano_usd;
    else if (record.cost !== undefined) row.unpriced += 1;
    if (isFailedCall(call)) row.errors += 1;
  }
  for (const row of sessions.values()) row.agents.sort();
  return [...sessions.values()]
    .sort((a, b) => b.last_ts.localeCompare(a.last_ts) || a.session.localeCompare(b.session))
    .slice(0, Math.max(0, Math.min(limit, MAX_SESSIONS)));
}
