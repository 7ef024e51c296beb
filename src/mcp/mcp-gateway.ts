// gw's /mcp: one MCP server (the official SDK's, streamable HTTP, stateless: a server per
// HTTP request) over every upstream server the operator configured. Tools, prompts and
// resources are namespaced `SERVER__NAME` (resources as gw-mcp://SERVER/<uri>). Each message
// goes through the same stages as a model call, already passed at the door (credential,
// person, team): the policy decides which servers and tools exist for this caller (tools/list
// shows exactly what tools/call allows), DLP scans tool arguments before they leave and tool
// results before they reach the agent (block: an MCP error naming the rule; redact: the text
// replaced), and the request's audit record names the server and tool, never their content.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListToolsRequestSchema, McpError, ReadResourceRequestSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { scanRequestBody } from '../dlp/scan-request.js';
import type { DlpSettings } from '../dlp/dlp-config.js';
import { evaluateToolAccess } from '../policy/evaluate-tool-access.js';
import type { PolicyRecord } from '../policy/policy-record.js';
import type { RequestTrace } from '../pipeline/request-trace.js';
import { everyPage, type UpstreamServers } from './upstream-servers.js';
import { GW_VERSION } from './version.js';

const SEPARATOR = '__';
const RESOURCE_SCHEME = 'gw-mcp://';
const CALL_TIMEOUT_MS = 300_000;

export interface McpCallContext {
  upstream: UpstreamServers;
  policies: readonly PolicyRecord[];
  dlp: DlpSettings;
  trace: RequestTrace;
  /**
   * One tool call's end, for the metrics (gw_mcp_calls_total, gw_mcp_call_duration_seconds).
   * The labels are bounded: a server gw does not front is "(unknown)", a tool its server did
   * not list is "(unlisted)", so a caller cannot mint label values with made-up names.
   */
  countCall(server: string, tool: string, outcome: McpCallOutcome, seconds: number): void;
}

export type McpCallOutcome = 'ok' | 'tool_error' | 'refused' | 'blocked' | 'not_found' | 'unavailable' | 'upstream_error';

/** The catalog code (src/errors.ts) a failed call's audit record carries in its outcome. */
const OUTCOME_CODES: Partial<Record<McpCallOutcome, string>> = {
  not_found: 'GW_ERR_MCP_NOT_FOUND', unavailable: 'GW_ERR_MCP_SERVER_UNAVAILABLE', upstream_error: 'mcp_upstream_error', tool_error: 'mcp_tool_error',
};

function split(name: string): { server: string; name: string } {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) throw new McpError(ErrorCode.InvalidParams, `"${name}" is not SERVER${SEPARATOR}NAME (names on gw's /mcp carry their server)`);
  return { server: name.slice(0, at), name: name.slice(at + SEPARATOR.length) };
}

/** Servers this caller may reach at all; a shadow refusal is a warning in the record. */
function allowedServers(context: McpCallContext): string[] {
  return context.upstream.list().map((server) => server.name).filter((server) => !refused(context, server, null));
}

function refused(context: McpCallContext, server: string, tool: string | null): string | null {
  for (const refusal of evaluateToolAccess(context.policies, server, tool)) {
    if (!refusal.shadow) return refusal.reason;
    context.trace.noteWarning(`policy_shadow: ${refusal.reason}`);
  }
  return null;
}

async function reach(context: McpCallContext, server: string): Promise<Client> {
  if (!context.upstream.has(server)) throw new McpError(ErrorCode.InvalidParams, `no MCP server "${server}" on this gateway`);
  try {
    return await context.upstream.client(server);
  } catch (error) {
    throw new McpError(ErrorCode.InternalError, `MCP server "${server}" is not reachable now: ${screened(context, messageOf(error))}`);
  }
}

/** Each allowed server's list, namespaced; a server that cannot answer now is left out (see /health). */
async function gather<T>(context: McpCallContext, list: (client: Client, server: string) => Promise<T[]>): Promise<T[]> {
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

/** DLP over a message's strings, in place: a block is an MCP error naming the rule, a redaction is noted. */
function scan(context: McpCallContext, value: unknown, direction: 'arguments' | 'result'): void {
  const found = scanRequestBody(value, context.dlp.rules, context.dlp.cache);
  for (const [ruleId, matches] of Object.entries(found.counts)) context.trace.noteDlp(ruleId, matches);
  if (found.blockedBy !== null) {
    context.trace.noteOutcome('GW_ERR_DLP_BLOCKED');
    throw new McpError(ErrorCode.InvalidRequest, `Blocked by DLP rule "${found.blockedBy}": the tool's ${direction} ${direction === 'arguments' ? 'carry' : 'carries'} what looks like ${found.blockedBy.replace(/_/g, ' ')}. The matched text is not shown.`);
  }
  if (found.redacted > 0) context.trace.noteWarning(`dlp_redacted_${direction}: ${found.redacted}`);
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // McpError prefixes its code; the error re-made from this text gets it again.
  return text.replace(/^MCP error -?\d+: /, '');
}

/**
 * Text from a server that reaches the agent outside a result (an error's message, a progress
 * message) passes the same DLP: redacted in place, or withheld whole when a rule blocks.
 */
function screened(context: McpCallContext, text: string): string {
  const holder = { text };
  const found = scanRequestBody(holder, context.dlp.rules, context.dlp.cache);
  for (const [ruleId, matches] of Object.entries(found.counts)) context.trace.noteDlp(ruleId, matches);
  if (found.blockedBy === null) return holder.text;
  context.trace.noteWarning(`dlp_withheld_server_text: ${found.blockedBy}`);
  return `(the server's text was withheld: DLP rule "${found.blockedBy}")`;
}

export function createMcpServer(context: McpCallContext): Server {
  const server = new Server({ name: 'gw', version: GW_VERSION }, { capabilities: { tools: {}, resources: {}, prompts: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    context.trace.noteData('mcp', { method: 'tools/list' });
    const tools = await gather(context, async (_client, name) => (await context.upstream.listTools(name))
      .map((tool) => ({ ...tool, name: `${name}${SEPARATOR}${tool.name}` }))
      .filter((tool) => refused(context, name, tool.name) === null));
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { server: upstreamName, name: tool } = split(request.params.name);
    const started = process.hrtime.bigint();
    // One call per HTTP request (mcp-route.ts refuses batches): this is the request's audit record.
    const finish = (outcome: McpCallOutcome) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      context.trace.noteData('mcp', { method: 'tools/call', server: upstreamName, tool, status: outcome, duration_ms: Math.round(ms) });
      const code = OUTCOME_CODES[outcome];
      if (code !== undefined) context.trace.noteOutcome(code);
      const known = context.upstream.has(upstreamName);
      context.countCall(known ? upstreamName : '(unknown)', known && context.upstream.listed(upstreamName, tool) ? tool : '(unlisted)', outcome, ms / 1000);
    };
    context.trace.noteData('mcp', { method: 'tools/call', server: upstreamName, tool });
    if (!context.upstream.has(upstreamName)) {
      finish('not_found');
      throw new McpError(ErrorCode.InvalidParams, `no MCP server "${upstreamName}" on this gateway (tools are SERVER${SEPARATOR}NAME; see tools/list)`);
    }
    const reason = refused(context, upstreamName, request.params.name);
    if (reason !== null) {
      context.trace.noteOutcome('GW_ERR_POLICY_DENIED');
      finish('refused');
      throw new McpError(ErrorCode.InvalidRequest, `Refused by ${reason}.`);
    }
    const args = structuredClone(request.params.arguments ?? {});
    try {
      scan(context, args, 'arguments');
    } catch (error) {
      finish('blocked');
      throw error;
    }
    let client: Client;
    try {
      client = await reach(context, upstreamName);
      // Asked of the server's own listing, so a made-up name never reaches it (nor a metrics label).
      if (!await context.upstream.hasTool(upstreamName, tool)) {
        finish('not_found');
        throw new McpError(ErrorCode.InvalidParams, `MCP server "${upstreamName}" has no tool "${tool}" (see tools/list)`);
      }
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.InvalidParams) throw error;
      finish('unavailable');
      throw error instanceof McpError ? error : new McpError(ErrorCode.InternalError, `MCP server "${upstreamName}" is not reachable now: ${screened(context, messageOf(error))}`);
    }
    const progressToken = request.params._meta?.progressToken;
    let result: CallToolResult;
    try {
      result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: CALL_TIMEOUT_MS, signal: extra.signal,
        // Progress from the tool server reaches the agent under the agent's own token.
        ...(progressToken === undefined ? {} : {
          onprogress: (progress) => void extra.sendNotification({
            method: 'notifications/progress',
            params: { ...progress, ...(progress.message === undefined ? {} : { message: screened(context, progress.message) }), progressToken },
          }).catch(() => undefined),
          resetTimeoutOnProgress: true,
        }),
      }) as CallToolResult;
    } catch (error) {
      finish('upstream_error');
      // The server's own error keeps its code; its text (and never its data) passes DLP like a result.
      if (error instanceof McpError) throw new McpError(error.code, screened(context, messageOf(error)));
      throw new McpError(ErrorCode.InternalError, `MCP server "${upstreamName}" failed: ${screened(context, messageOf(error))}`);
    }
    try {
      scan(context, result.content, 'result');
      if (result.structuredContent !== undefined) scan(context, result.structuredContent, 'result');
    } catch (error) {
      finish('blocked');
      throw error;
    }
    finish(result.isError ? 'tool_error' : 'ok');
    return result;
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    context.trace.noteData('mcp', { method: 'prompts/list' });
    return { prompts: await gather(context, async (client, name) => (await everyPage(async (cursor) => {
      const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
      return { items: page.prompts, nextCursor: page.nextCursor };
    })).map((prompt) => ({ ...prompt, name: `${name}${SEPARATOR}${prompt.name}` }))) };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { server: upstreamName, name } = split(request.params.name);
    context.trace.noteData('mcp', { method: 'prompts/get', server: upstreamName, prompt: name });
    if (refused(context, upstreamName, null)) throw new McpError(ErrorCode.InvalidRequest, `Refused by policy: MCP server ${upstreamName}`);
    // A prompt's arguments leave for the server as a tool's do: scanned first.
    const args = request.params.arguments === undefined ? undefined : structuredClone(request.params.arguments);
    if (args !== undefined) scan(context, args, 'arguments');
    const prompt = await (await reach(context, upstreamName)).getPrompt({ name, ...(args ? { arguments: args } : {}) });
    scan(context, prompt.messages, 'result');
    return prompt;
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    context.trace.noteData('mcp', { method: 'resources/list' });
    return {
      resources: await gather(context, async (client, name) => (await everyPage(async (cursor) => {
        const page = await client.listResources(cursor === undefined ? undefined : { cursor });
        return { items: page.resources, nextCursor: page.nextCursor };
      }))
        .map((resource) => ({ ...resource, uri: `${RESOURCE_SCHEME}${name}/${encodeURIComponent(resource.uri)}` }))),
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const match = /^gw-mcp:\/\/([^/]+)\/(.+)$/.exec(request.params.uri);
    if (!match) throw new McpError(ErrorCode.InvalidParams, `"${request.params.uri}" is not a ${RESOURCE_SCHEME}SERVER/… resource of this gateway`);
    const [, upstreamName, encoded] = match as unknown as [string, string, string];
    context.trace.noteData('mcp', { method: 'resources/read', server: upstreamName });
    if (refused(context, upstreamName, null)) throw new McpError(ErrorCode.InvalidRequest, `Refused by policy: MCP server ${upstreamName}`);
    const read = await (await reach(context, upstreamName)).readResource({ uri: decodeURIComponent(encoded) });
    scan(context, read.contents, 'result');
    return { contents: read.contents.map((content) => ({ ...content, uri: request.params.uri })) };
  });

  return server;
}
