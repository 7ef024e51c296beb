// tools/list and tools/call through gw: each tool named SERVER__TOOL, listed only when the
// caller's policy allows it (so tools/list shows exactly what tools/call allows), called only
// when the server listed it (a made-up name never reaches a server, nor a metrics label).
// Progress from the tool server reaches the agent under the agent's own token, through DLP.
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, type Progress } from '@modelcontextprotocol/server';
import { gather, reach, refusal, refusedError, upstreamError, type McpCallContext } from './mcp-context.js';
import { SEPARATOR, splitName, type RelayCall } from './relay-call.js';
import type { RelayExtra, RelayHandler } from './relay.js';
import { scanMcpMessage } from './scan-mcp-message.js';

const CALL_TIMEOUT_MS = 300_000;

export function listTools(context: McpCallContext): RelayHandler<'tools/list'> {
  return async () => ({
    tools: await gather(context, async (_client, server) => (await context.upstream.listTools(server))
      .map((tool) => ({ ...tool, name: `${server}${SEPARATOR}${tool.name}` }))
      .filter((tool) => refusal(context, server, { kind: 'tool', name: tool.name }) === null)),
  });
}

export function callTool(context: McpCallContext): RelayHandler<'tools/call'> {
  return async (request, extra, call) => {
    const split = splitName(request.params.name);
    if (split === null) {
      call.settle('not_found');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `"${request.params.name}" is not SERVER${SEPARATOR}NAME (names on gw's /mcp carry their server)`);
    }
    const client = await admit(context, call, split.server, request.params.name, split.name);
    const args = request.params.arguments ?? {};
    await guardTool(context, call, 'pre', args);
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await client.callTool({ name: split.name, arguments: args }, {
        timeout: CALL_TIMEOUT_MS, signal: extra.mcpReq.signal, ...progressOptions(context, request.params._meta?.progressToken, extra),
      });
    } catch (error) {
      call.settle('upstream_error');
      throw upstreamError(context, split.server, error);
    }
    await guardTool(context, call, 'post', result);
    return result;
  };
}

/** The guardrails on a tool call's arguments or result; a refusal is an MCP error with gw's message, the call settled with its code. */
async function guardTool(context: McpCallContext, call: RelayCall, phase: 'pre' | 'post', value: unknown): Promise<void> {
  if (!context.guard) return;
  try {
    await context.guard(phase, value);
  } catch (error) {
    call.settle(error instanceof Error && 'code' in error && error.code === 'GW_ERR_GUARDRAIL_UNAVAILABLE' ? 'guardrail_unavailable' : 'guardrail_blocked');
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, error instanceof Error ? error.message : String(error));
  }
}

/** The policy, the server and its listing, in that order: a refused or made-up call never reaches a server. */
async function admit(context: McpCallContext, call: RelayCall, server: string, namespaced: string, tool: string): Promise<Client> {
  if (!context.upstream.has(server)) {
    call.settle('not_found');
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no MCP server "${server}" on this gateway (tools are SERVER${SEPARATOR}NAME; see tools/list)`);
  }
  const reason = refusal(context, server, { kind: 'tool', name: namespaced });
  if (reason !== null) {
    call.settle('refused');
    throw refusedError(reason);
  }
  let listed: boolean;
  let client: Client;
  try {
    client = await reach(context, server);
    listed = await context.upstream.hasTool(server, tool);
  } catch (error) {
    call.settle('unavailable');
    throw error instanceof ProtocolError ? error : upstreamError(context, server, error);
  }
  if (!listed) {
    call.settle('not_found');
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `MCP server "${server}" has no tool "${tool}" (see tools/list)`);
  }
  return client;
}

/** A progress notification is the server's message to the agent: scanned whole; one that a rule blocks is not relayed. */
function progressOptions(context: McpCallContext, progressToken: string | number | undefined, extra: RelayExtra): object {
  if (progressToken === undefined) return {};
  return {
    resetTimeoutOnProgress: true,
    onprogress: (progress: Progress) => {
      const params = { ...structuredClone(progress), progressToken };
      const block = scanMcpMessage(context.dlp, context.trace, params, 'result');
      if (block !== null) {
        context.trace.noteWarning(`dlp_withheld_progress: ${block.rule}`);
        return;
      }
      void extra.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
    },
  };
}
