// The explorer's words for a request record (src/admin/describe-request.ts): the operation, the
// control plane, and who refused a call, from the fields gw writes on the record.
import { describe, expect, it } from 'vitest';
import { describeRequest } from '../../src/admin/describe-request.js';
import { described, matches, toSummary } from '../../src/admin/trail-reader.js';

describe('describeRequest', () => {
  it('names operations in a word and puts gw\'s own traffic on the control plane', () => {
    expect(describeRequest({ operation: 'chat.completions', status: 200, outcome: ['ok'] })).toEqual({ what: 'chat', plane: 'data', result_kind: 'ok', result: 'ok' });
    expect(describeRequest({ operation: 'models.list', status: 200, outcome: ['ok'] })).toMatchObject({ what: 'models.list', plane: 'control' });
    expect(describeRequest({ operation: 'hub.witness.push', status: 200, outcome: ['ok'] })).toMatchObject({ what: 'audit checkpoint push', plane: 'control' });
    expect(describeRequest({ operation: 'hub.token', status: 200, outcome: ['ok'] })).toMatchObject({ what: 'token exchange', plane: 'control' });
    expect(describeRequest({ operation: 'mcp', status: 200, outcome: ['ok'], data: { mcp: { method: 'initialize' } } })).toMatchObject({ what: 'mcp initialize', plane: 'control' });
    expect(describeRequest({ operation: 'mcp', status: 200, outcome: ['ok'], data: { mcp: { method: 'tools/call', server: 'notes', tool: 'add' } } })).toMatchObject({ what: 'mcp tools/call', plane: 'data' });
  });

  it('calls the MCP SDK\'s GET stream probe expected, not an error', () => {
    expect(describeRequest({ operation: 'mcp', route: '/mcp', status: 405, outcome: ['GW_ERR_ROUTE_METHOD_NOT_ALLOWED'] }))
      .toEqual({ what: 'mcp stream probe', plane: 'control', result_kind: 'expected', result: 'expected: no stream on a stateless /mcp (405)' });
  });

  it('says who refused a call, from the refusal gw recorded', () => {
    const budget = describeRequest({ status: 429, outcome: ['GW_ERR_BUDGET_EXCEEDED'], data: { refusal: 'Budget team:eng ($5.00 a month, hard, UTC) is spent. It resets at 2026-12-01T00:00:00.000Z.' } });
    expect(budget).toMatchObject({ result_kind: 'refused', result: 'budget team:eng monthly budget' });
    expect(describeRequest({ status: 429, outcome: ['GW_ERR_BUDGET_EXCEEDED'], data: { refusal: 'Budget person:a@b.c ($1.00 a day, hard, UTC) is spent.' } }).result).toBe('budget person:a@b.c daily budget');
    expect(describeRequest({ status: 429, outcome: ['GW_ERR_POLICY_RATE_LIMITED'], data: { refusal: 'Rate limited by policy team:eng: 5 requests per minute reached; retry in 3 s.' } }).result)
      .toBe('rate limit policy team:eng: 5 requests per minute reached');
    expect(describeRequest({ status: 403, outcome: ['GW_ERR_POLICY_DENIED'], data: { refusal: 'Refused by policy team:eng: model "x" matches deny_models (x*).' } }).result).toBe('policy rule team:eng deny_models');
    expect(describeRequest({ status: 403, outcome: ['GW_ERR_DLP_BLOCKED'], dlp: { github_token: 1 } }).result).toBe('DLP rule github_token');
    expect(describeRequest({ status: 401, outcome: ['GW_ERR_AUTH_INVALID'] })).toMatchObject({ result_kind: 'refused', result: 'auth: invalid' });
    // Records written before the refusal text was kept still say which kind of rule refused.
    expect(describeRequest({ status: 429, outcome: ['GW_ERR_BUDGET_EXCEEDED'] }).result).toBe('budget');
  });

  it('names the provider that failed', () => {
    expect(describeRequest({ status: 500, provider: 'openai', outcome: ['upstream_500'] })).toMatchObject({ result_kind: 'failed', result: 'provider error: openai answered 500' });
    expect(describeRequest({ status: 502, provider: 'vllm', outcome: ['GW_ERR_UPSTREAM_UNREACHABLE'] }).result).toBe('provider error: vllm unreachable');
  });

  it('is on every summary the trail readers return (file and PostgreSQL share described), and the plane filters', () => {
    const line = JSON.stringify({ v: 1, seq: 3, ts: '2026-11-27T10:00:00.000Z', kind: 'request', operation: 'models.list', status: 200, outcome: ['ok'], prev: 'x', hash: 'y' });
    const summary = toSummary(line)!;
    expect(described(summary)).toMatchObject({ seq: 3, what: 'models.list', plane: 'control', result: 'ok' });
    expect(matches(summary, { plane: 'control' })).toBe(true);
    expect(matches(summary, { plane: 'data' })).toBe(false);
  });
});
