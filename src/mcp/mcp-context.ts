// What every relayed MCP message is handled with: the caller's policies and DLP rules, the
// upstream servers, the record; and the steps each capability's relay shares (the policy
// answer for a server or one of its capabilities, reaching a server, gathering a listing).
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { DlpSettings } from '../dlp/dlp-config.js';
import { evaluateMcpAccess, type McpCapability } from '../policy/evaluate-mcp-access.js';
import type { PolicyRecord } from '../policy/policy-record.js';
import { screenedText } from './scan-mcp-message.js';
import type { RecordDeps } from './relay-call.js';

export interface McpCallContext extends RecordDeps {
  policies: readonly PolicyRecord[];
  dlp: DlpSettings;
  /**
   * The external guardrails (docs/guardrails.md) on a tool call's arguments (pre) and its result
   * (post): a rewrite changes `value` in place; a block or a fail-closed failure throws gw's error.
   */
  guard?: (phase: 'pre' | 'post', value: unknown) => Promise<void>;
}

/** The reason an enforced policy refuses the server (or this capability of it), or null; a shadow refusal is a warning in the record. */
export function refusal(context: McpCallContext, server: string, capability: McpCapability | null): string | null {
  for (const refused of evaluateMcpAccess(context.policies, server, capability)) {
    if (!refused.shadow) return refused.reason;
    context.trace.noteWarning(`policy_shadow: ${refused.reason}`);
  }
  return null;
}

export function refusedError(reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, `Refused by ${reason}.`);
}

/** Servers this caller may reach at all. */
function allowedServers(context: McpCallContext): string[] {
  return context.upstream.list().map((server) => server.name).filter((server) => refusal(context, server, null) === null);
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // A protocol error may carry its code in its text; the error re-made from this text gets it again.
  return text.replace(/^MCP error -?\d+: /, '');
}

export async function reach(context: McpCallContext, server: string): Promise<Client> {
  if (!context.upstream.has(server)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no MCP server "${server}" on this gateway`);
  try {
    return await context.upstream.client(server);
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `MCP server "${server}" is not reachable now: ${screenedText(context.dlp, context.trace, messageOf(error))}`);
  }
}

/** A server's own error, re-made for the agent: its code kept, its text (never its data) through DLP. */
export function upstreamError(context: McpCallContext, server: string, error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return new ProtocolError(error.code, screenedText(context.dlp, context.trace, messageOf(error)));
  return new ProtocolError(ProtocolErrorCode.InternalError, `MCP server "${server}" failed: ${screenedText(context.dlp, context.trace, messageOf(error))}`);
}

/** Each allowed server's list; a server that cannot answer now is left out (see /health). */
export async function gather<T>(context: McpCallContext, list: (client: Client, server: string) => Promise<T[]>): Promise<T[]> {
  const lists = await Promise.all(allowedServers(context).map(async (server) => {
    try {
      return await list(await context.upstream.client(server), server);
    } catch {
      context.trace.noteWarning(`mcp_server_unavailable: ${server}`);
      return [];
    }
  }));
  return lists.flat();
}
