// gw's /mcp: one MCP server (the official SDK's, streamable HTTP, stateless: a server per
// HTTP request) over every upstream server the operator configured. Tools, prompts and
// resources are namespaced `SERVER__NAME` (resources as gw-mcp://SERVER/<uri>). Each message
// goes through the same stages as a model call, already passed at the door (credential,
// person, team, and DLP over the agent's whole message): the policy decides which servers,
// tools, resources and prompts exist for this caller (a listing shows exactly what a call
// allows), DLP scans every answer whole before it reaches the agent (relay.ts), and the
// request's audit record names the method, server and tool or prompt, never their content.
// Which methods are relayed is mcp-methods.ts's list; the type below wants a handler for each.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, CompleteRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
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
  'tools/list': (server, context) => relay(server, context, ListToolsRequestSchema, listTools(context)),
  'tools/call': (server, context) => relay(server, context, CallToolRequestSchema, callTool(context)),
  'resources/list': (server, context) => relay(server, context, ListResourcesRequestSchema, listResources(context)),
  'resources/templates/list': (server, context) => relay(server, context, ListResourceTemplatesRequestSchema, listResourceTemplates(context)),
  'resources/read': (server, context) => relay(server, context, ReadResourceRequestSchema, readResource(context)),
  'prompts/list': (server, context) => relay(server, context, ListPromptsRequestSchema, listPrompts(context)),
  'prompts/get': (server, context) => relay(server, context, GetPromptRequestSchema, getPrompt(context)),
  'completion/complete': (server, context) => relay(server, context, CompleteRequestSchema, complete(context)),
};

export function createMcpServer(context: McpCallContext): Server {
  const server = new Server({ name: 'gw', version: GW_VERSION }, { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} } });
  for (const register of Object.values(RELAYS)) register(server, context);
  return server;
}
