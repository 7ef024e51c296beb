// gw's /mcp: one MCP server (the official 2.x SDK's, a server per HTTP request, whatever
// revision the agent speaks) over every upstream server the operator configured. Tools, prompts and
// resources are namespaced `SERVER__NAME` (resources as gw-mcp://SERVER/<uri>). Each message
// goes through the same stages as a model call, already passed at the door (credential,
// person, team, and DLP over the agent's whole message): the policy decides which servers,
// tools, resources and prompts exist for this caller (a listing shows exactly what a call
// allows), DLP scans every answer whole before it reaches the agent (relay.ts), and the
// request's audit record names the method, server and tool or prompt, never their content.
// Which methods are relayed is mcp-methods.ts's list; the type below wants a handler for each.
import { Server } from '@modelcontextprotocol/server';
import { complete } from './completion-relay.js';
import type { McpCallContext } from './mcp-context.js';
import type { RelayedRequest } from './mcp-methods.js';
import { getPrompt, listPrompts } from './prompt-relay.js';
import { relay } from './relay.js';
import { listResources, listResourceTemplates, readResource } from './resource-relay.js';
import { callTool, listTools } from './tool-relay.js';
import { GW_VERSION } from './version.js';

export type { McpCallContext } from './mcp-context.js';
export type { McpCallOutcome } from './relay-call.js';

const RELAYS: Record<RelayedRequest, (server: Server, context: McpCallContext) => void> = {
  'tools/list': (server, context) => relay(server, context, 'tools/list', listTools(context)),
  'tools/call': (server, context) => relay(server, context, 'tools/call', callTool(context)),
  'resources/list': (server, context) => relay(server, context, 'resources/list', listResources(context)),
  'resources/templates/list': (server, context) => relay(server, context, 'resources/templates/list', listResourceTemplates(context)),
  'resources/read': (server, context) => relay(server, context, 'resources/read', readResource(context)),
  'prompts/list': (server, context) => relay(server, context, 'prompts/list', listPrompts(context)),
  'prompts/get': (server, context) => relay(server, context, 'prompts/get', getPrompt(context)),
  'completion/complete': (server, context) => relay(server, context, 'completion/complete', complete(context)),
};

export function createMcpServer(context: McpCallContext): Server {
  const server = new Server({ name: 'gw', version: GW_VERSION }, { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} } });
  for (const register of Object.values(RELAYS)) register(server, context);
  return server;
}
