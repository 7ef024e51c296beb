// What crosses to a provider, per header-rules.ts: Claude Code's gateway protocol asks
// for anthropic-* and x-stainless-* unchanged and the user-agent kept; gw's hop count
// goes only to another gw.
import { describe, expect, it } from 'vitest';
import { buildUpstreamHeaders } from '../../../src/pipeline/govern/upstream-headers.js';
import { HEADER_RULES, isForwardedHeader } from '../../../src/pipeline/govern/header-rules.js';

const CLAUDE_CODE = {
  host: 'gw.example', authorization: 'Bearer atu-secret', 'x-api-key': 'sk-gw-secret', 'content-type': 'application/json',
  accept: 'application/json', 'accept-encoding': 'gzip, deflate, br, zstd', 'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'anthropic-dangerous-direct-browser-access': 'true',
  'x-stainless-lang': 'js', 'x-stainless-package-version': '0.70.0', 'x-stainless-os': 'Linux', 'x-stainless-retry-count': '0',
  'x-stainless-timeout': '600', 'user-agent': 'claude-cli/2.1.197 (external, cli)', 'x-app': 'cli', 'x-gw-hops': '2',
  'x-claude-code-session-id': 'session-1', cookie: 'a=1',
};
const ANTHROPIC = { auth: { 'x-api-key': 'sk-ant-upstream' }, defaults: { 'anthropic-version': '2023-06-01' } };

describe('buildUpstreamHeaders', () => {
  it('forwards anthropic-* and x-stainless-* unchanged and keeps the user-agent with a gw suffix', () => {
    const headers = buildUpstreamHeaders(CLAUDE_CODE, ANTHROPIC);
    for (const name of Object.keys(CLAUDE_CODE).filter((key) => key.startsWith('anthropic-') || key.startsWith('x-stainless-'))) {
      expect(headers[name], name).toBe(CLAUDE_CODE[name as keyof typeof CLAUDE_CODE]);
    }
    expect(headers['user-agent']).toBe('claude-cli/2.1.197 (external, cli) gw/0.1.0');
    expect(headers['x-api-key']).toBe('sk-ant-upstream');
  });

  it('sends no hop count to Anthropic, and the count plus one to another gw', () => {
    expect(buildUpstreamHeaders(CLAUDE_CODE, ANTHROPIC)['x-gw-hops']).toBeUndefined();
    expect(buildUpstreamHeaders(CLAUDE_CODE, { auth: {}, defaults: {}, countsHops: true })['x-gw-hops']).toBe('3');
  });

  it('still refuses a loop whatever the provider', () => {
    expect(() => buildUpstreamHeaders({ ...CLAUDE_CODE, 'x-gw-hops': '8' }, ANTHROPIC)).toThrow(/8 gateways/);
  });

  it('never forwards what gw consumes: credentials, the session id, cookies, the host', () => {
    const headers = buildUpstreamHeaders(CLAUDE_CODE, ANTHROPIC);
    for (const name of ['authorization', 'cookie', 'host', 'x-claude-code-session-id', 'x-app']) expect(headers[name], name).toBeUndefined();
    expect(JSON.stringify(headers)).not.toMatch(/atu-secret|sk-gw-secret/);
  });

  it('asks for an uncompressed answer (gw reads usage and scans output as it streams)', () => {
    expect(buildUpstreamHeaders(CLAUDE_CODE, ANTHROPIC)['accept-encoding']).toBe('identity');
  });
});

describe('HEADER_RULES', () => {
  it('never lists a header both forwarded and consumed', () => {
    const consumed = HEADER_RULES.filter((rule) => rule.treatment === 'consume').map((rule) => rule.name);
    expect(consumed.filter((name) => isForwardedHeader(name))).toEqual([]);
  });
});
