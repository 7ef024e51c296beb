// The console's session view over records in memory (the trail readers hand theirs in): a
// session's calls as gw audit show shapes them, and the list's totals, filters and order.
import { describe, expect, it } from 'vitest';
import { isFailedCall, sessionCallOf, sessionCallsOf, type SessionRecord } from '../../src/admin/session-calls.js';
import { summarizeSessions } from '../../src/admin/session-list.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 20, 9, 0, second)).toISOString();
const model = (second: number, session: string | undefined, extra: Partial<SessionRecord> = {}): SessionRecord => ({
  ts: at(second), request_id: `req_${second}`, ...(session ? { session } : {}), agent: 'codex/0.169.0', person: 'ana@example.com', team: 'eng',
  operation: 'responses.create', model: 'openai/gpt-4o', status: 200, latency_ms: 300, tokens: { input: 10, output: 2 }, cost: { nano_usd: 500 }, outcome: ['ok'], ...extra,
});
const mcp = (second: number, session: string, method: string | undefined, status = 'ok'): SessionRecord => ({
  ts: at(second), request_id: `mcp_${second}`, session, agent: 'codex-mcp-client/0.169.0', person: 'ana@example.com', team: 'eng', operation: 'mcp', status: 200,
  ...(method ? { data: { mcp: { method, server: 'notes', ...(method === 'tools/call' ? { tool: 'echo', status } : {}) } } } : {}), outcome: ['ok'],
});

describe('a session\'s calls', () => {
  it('leaves out the MCP handshake, names a tool call server/tool, and adds a tool\'s failure to its outcome', () => {
    const calls = sessionCallsOf([
      mcp(1, 'run', 'initialize'), mcp(2, 'run', 'notifications/initialized'), mcp(3, 'run', undefined), model(4, 'run'), mcp(5, 'run', 'tools/call', 'tool_error'), model(6, 'other'),
    ], 'run');
    expect(calls.map((call) => [call.operation, call.target, call.outcome])).toEqual([
      ['responses.create', 'openai/gpt-4o', ['ok']], ['mcp tools/call', 'notes/echo', ['ok', 'tool_error']],
    ]);
    expect(calls.map(isFailedCall)).toEqual([false, true]);
  });

  it('keeps an unknown price unknown (null), never 0', () => {
    expect(sessionCallOf(model(1, 'run', { cost: { price: 'unknown' } })).cost_nano_usd).toBeNull();
    expect(sessionCallOf(model(1, 'run', { status: 502 })).cost_nano_usd).toBe(500);
    expect(isFailedCall(sessionCallOf(model(1, 'run', { status: 502 })))).toBe(true);
  });
});

describe('the list of sessions', () => {
  const records = [
    model(1, 'early'), mcp(2, 'run', 'initialize'), model(3, 'run'), mcp(4, 'run', 'tools/list'), mcp(5, 'run', 'tools/call'),
    model(6, 'run', { cost: { price: 'unknown' } }), model(7, undefined), model(8, 'bo', { person: 'bo@example.com', team: 'web', agent: 'opencode/1.18.33' }),
  ];

  it('sums each session\'s calls (the handshake left out), the most recently active first', () => {
    const [bo, run, early] = summarizeSessions(records, {}, 10);
    expect(bo).toMatchObject({ session: 'bo', person: 'bo@example.com', team: 'web', agents: ['opencode/1.18.33'], calls: 1 });
    expect(run).toEqual({
      session: 'run', person: 'ana@example.com', team: 'eng', agents: ['codex-mcp-client/0.169.0', 'codex/0.169.0'], first_ts: at(3), last_ts: at(6),
      calls: 4, tool_calls: 1, input_tokens: 20, output_tokens: 4, cost_nano_usd: 500, unpriced: 1, errors: 0,
    });
    expect(early!.session).toBe('early');
  });

  it('filters by person, team and time, and stops at the limit', () => {
    expect(summarizeSessions(records, { person: 'bo@example.com' }, 10).map((row) => row.session)).toEqual(['bo']);
    expect(summarizeSessions(records, { team: 'eng' }, 10).map((row) => row.session)).toEqual(['run', 'early']);
    expect(summarizeSessions(records, { since: at(2) }, 10).map((row) => row.session)).toEqual(['bo', 'run']);
    expect(summarizeSessions(records, {}, 1).map((row) => row.session)).toEqual(['bo']);
  });
});
