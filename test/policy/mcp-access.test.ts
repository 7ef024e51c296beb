// The MCP part of a policy (src/policy/evaluate-mcp-access.ts): the server lists are the
// default for every capability; tools, resources and prompts each have their own lists on
// top, and a rule for one kind never stands in for another; resourceAllowedByPattern is the
// one way to read a URI the server did not list.
import { describe, expect, it } from 'vitest';
import { evaluateMcpAccess, resourceAllowedByPattern } from '../../src/policy/evaluate-mcp-access.js';
import type { PolicyRecord } from '../../src/policy/policy-record.js';

const reasons = (records: PolicyRecord[], server: string, capability: Parameters<typeof evaluateMcpAccess>[2]) =>
  evaluateMcpAccess(records, server, capability).map((refusal) => refusal.reason);

describe('MCP access', () => {
  it('the server lists refuse every capability of a server, and the server itself', () => {
    const records: PolicyRecord[] = [{ scope: 'team:a', deny_mcp_servers: ['files'] }];
    expect(reasons(records, 'files', null)).toEqual(['policy team:a: MCP server "files" matches deny_mcp_servers (files)']);
    for (const kind of ['tool', 'resource', 'prompt'] as const) {
      expect(reasons(records, 'files', { kind, name: 'files__x' })).toHaveLength(1);
      expect(reasons(records, 'docs', { kind, name: 'docs__x' })).toEqual([]);
    }
    expect(reasons([{ scope: '*', allow_mcp_servers: ['docs'] }], 'files', { kind: 'prompt', name: 'files__p' })[0]).toMatch(/not in allow_mcp_servers/);
  });

  it('each kind has its own lists: a tool rule does not decide a resource or a prompt, nor the other way round', () => {
    const records: PolicyRecord[] = [{
      scope: 'key:vk_1', deny_tools: ['files__read*'], deny_resources: ['files__file:///secret/*'], allow_prompts: ['files__review'],
    }];
    expect(reasons(records, 'files', { kind: 'tool', name: 'files__read_file' })[0]).toMatch(/tool "files__read_file" matches deny_tools/);
    expect(reasons(records, 'files', { kind: 'tool', name: 'files__write' })).toEqual([]);
    expect(reasons(records, 'files', { kind: 'resource', name: 'files__file:///secret/key.pem' })[0]).toMatch(/resource .* matches deny_resources/);
    expect(reasons(records, 'files', { kind: 'resource', name: 'files__file:///notes/a.txt' })).toEqual([]);
    expect(reasons(records, 'files', { kind: 'prompt', name: 'files__review' })).toEqual([]);
    expect(reasons(records, 'files', { kind: 'prompt', name: 'files__read_all' })[0]).toMatch(/prompt "files__read_all" is not in allow_prompts/);
  });

  it('every applying record is asked, and a shadow refusal says so', () => {
    const records: PolicyRecord[] = [{ scope: '*', deny_prompts: ['*'] }, { scope: 'team:a', mode: 'shadow', deny_resources: ['*'] }];
    expect(evaluateMcpAccess(records, 'docs', { kind: 'prompt', name: 'docs__p' })).toMatchObject([{ scope: '*', shadow: false }]);
    expect(evaluateMcpAccess(records, 'docs', { kind: 'resource', name: 'docs__u' })).toMatchObject([{ scope: 'team:a', shadow: true }]);
  });

  it('an enforced allow_resources pattern lets an unlisted URI be read; a shadow one, or none, does not', () => {
    expect(resourceAllowedByPattern([{ scope: '*', allow_resources: ['files__file:///notes/*'] }], 'files__file:///notes/todo.txt')).toBe(true);
    expect(resourceAllowedByPattern([{ scope: '*', allow_resources: ['files__file:///notes/*'] }], 'files__file:///etc/passwd')).toBe(false);
    expect(resourceAllowedByPattern([{ scope: '*', mode: 'shadow', allow_resources: ['*'] }], 'files__file:///etc/passwd')).toBe(false);
    expect(resourceAllowedByPattern([{ scope: '*', deny_resources: ['x'] }], 'files__file:///notes/todo.txt')).toBe(false);
  });
});
