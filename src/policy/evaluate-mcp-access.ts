// The MCP part of a policy: may this identity reach this MCP server, and use this one of its
// capabilities (a tool, a resource, a prompt)? The server lists (allow/deny_mcp_servers) are
// the default for everything a server offers; each kind of capability has its own lists on
// top (tools and prompts by namespaced name `server__name`, resources by `server__URI`), so a
// tool rule never stands in for a resource or a prompt. The same answer decides what a
// listing shows and what a call allows, so an agent never sees what it would be refused.
import { matchesAny } from './match-glob.js';
import type { PolicyRecord } from './policy-record.js';
import type { PolicyRefusal } from './evaluate-policy.js';

export type McpCapabilityKind = 'tool' | 'resource' | 'prompt';

/** One capability of a server, by its namespaced name (`server__tool`, `server__prompt`, `server__URI`). */
export interface McpCapability {
  kind: McpCapabilityKind;
  name: string;
}

const LISTS: Record<McpCapabilityKind, { allow: 'allow_tools' | 'allow_resources' | 'allow_prompts'; deny: 'deny_tools' | 'deny_resources' | 'deny_prompts' }> = {
  tool: { allow: 'allow_tools', deny: 'deny_tools' },
  resource: { allow: 'allow_resources', deny: 'deny_resources' },
  prompt: { allow: 'allow_prompts', deny: 'deny_prompts' },
};

function listReason(kind: string, value: string, allowed: readonly string[] | undefined, denied: readonly string[] | undefined, allowName: string, denyName: string): string | null {
  if (matchesAny(denied, value)) return `${kind} "${value}" matches ${denyName} (${denied!.join(', ')})`;
  if (allowed !== undefined && !matchesAny(allowed, value)) return `${kind} "${value}" is not in ${allowName} (${allowed.join(', ') || 'empty'})`;
  return null;
}

/** Every refusal of a server (and, when `capability` is given, of that capability), shadow ones included. */
export function evaluateMcpAccess(records: readonly PolicyRecord[], server: string, capability: McpCapability | null): PolicyRefusal[] {
  const refusals: PolicyRefusal[] = [];
  for (const record of records) {
    const reasons = [listReason('MCP server', server, record.allow_mcp_servers, record.deny_mcp_servers, 'allow_mcp_servers', 'deny_mcp_servers')];
    if (capability !== null) {
      const { allow, deny } = LISTS[capability.kind];
      reasons.push(listReason(capability.kind, capability.name, record[allow], record[deny], allow, deny));
    }
    for (const reason of reasons) {
      if (reason !== null) refusals.push({ scope: record.scope, shadow: record.mode === 'shadow', reason: `policy ${record.scope}: ${reason}` });
    }
  }
  return refusals;
}

/**
 * Whether an enforced policy's allow_resources names this resource outright: the one way to
 * read a URI its server did not list (one a template makes, or one the agent was told of).
 */
export function resourceAllowedByPattern(records: readonly PolicyRecord[], name: string): boolean {
  return records.some((record) => record.mode !== 'shadow' && matchesAny(record.allow_resources, name));
}
