// The MCP part of a policy: may this identity reach this MCP server, and call this
// tool (named `server__tool`)? The same answer decides what tools/list shows and
// what tools/call allows, so an agent never sees a tool it would be refused.
import { matchesAny } from './match-glob.js';
import type { PolicyRecord } from './policy-record.js';
import type { PolicyRefusal } from './evaluate-policy.js';

function listReason(kind: string, value: string, allowed: readonly string[] | undefined, denied: readonly string[] | undefined, allowName: string, denyName: string): string | null {
  if (matchesAny(denied, value)) return `${kind} "${value}" matches ${denyName} (${denied!.join(', ')})`;
  if (allowed !== undefined && !matchesAny(allowed, value)) return `${kind} "${value}" is not in ${allowName} (${allowed.join(', ') || 'empty'})`;
  return null;
}

/** Every refusal of a server (and, when `tool` is given, of that namespaced tool), shadow ones included. */
export function evaluateToolAccess(records: readonly PolicyRecord[], server: string, tool: string | null): PolicyRefusal[] {
  const refusals: PolicyRefusal[] = [];
  for (const record of records) {
    const reasons = [listReason('MCP server', server, record.allow_mcp_servers, record.deny_mcp_servers, 'allow_mcp_servers', 'deny_mcp_servers')];
    if (tool !== null) reasons.push(listReason('tool', tool, record.allow_tools, record.deny_tools, 'allow_tools', 'deny_tools'));
    for (const reason of reasons) {
      if (reason !== null) refusals.push({ scope: record.scope, shadow: record.mode === 'shadow', reason: `policy ${record.scope}: ${reason}` });
    }
  }
  return refusals;
}
