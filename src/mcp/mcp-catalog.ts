// What one MCP server offers through gw's /mcp, as data: its tools, resources, resource templates
// and prompts, each with the name an agent uses at /mcp (SERVER__tool, gw-mcp://SERVER/…).
// Read with the gateway's own client code (UpstreamServers), so `gw mcp test NAME --json` and the
// console's MCP page show what the gateway discovers. A capability the server does not declare
// is an empty list, not an error (listing it would be "method not found").
import type { Client } from '@modelcontextprotocol/client';
import { RESOURCE_SCHEME, SEPARATOR } from './relay-call.js';
import { everyPage, type UpstreamServers } from './upstream-servers.js';

export interface McpCatalog {
  server: string;
  connect_ms: number;
  list_ms: number;
  tools: Array<{ name: string; gateway_name: string; description: string }>;
  resources: Array<{ uri: string; gateway_uri: string; name: string; description: string; mime_type: string | null }>;
  resource_templates: Array<{ uri_template: string; gateway_uri_template: string; name: string; description: string }>;
  prompts: Array<{ name: string; gateway_name: string; description: string; arguments: Array<{ name: string; required: boolean }> }>;
}

/** Connects to `name` as the gateway does and reads every listing the server declares. */
export async function readMcpCatalog(upstream: UpstreamServers, name: string): Promise<McpCatalog> {
  let started = Date.now();
  const client = await upstream.client(name);
  const connectMs = Date.now() - started;
  started = Date.now();
  const offers = client.getServerCapabilities() ?? {};
  const [tools, resources, templates, prompts] = await Promise.all([
    offers.tools ? upstream.listTools(name) : [],
    offers.resources ? upstream.listResources(name) : [],
    offers.resources ? listTemplates(client) : [],
    offers.prompts ? listPrompts(client) : [],
  ]);
  return {
    server: name, connect_ms: connectMs, list_ms: Date.now() - started,
    tools: tools.map((tool) => ({ name: tool.name, gateway_name: `${name}${SEPARATOR}${tool.name}`, description: tool.description ?? '' })),
    resources: resources.map((resource) => ({
      uri: resource.uri, gateway_uri: `${RESOURCE_SCHEME}${name}/${encodeURIComponent(resource.uri)}`,
      name: resource.name, description: resource.description ?? '', mime_type: resource.mimeType ?? null,
    })),
    resource_templates: templates.map((template) => ({
      uri_template: template.uriTemplate, gateway_uri_template: `${RESOURCE_SCHEME}${name}/${template.uriTemplate}`,
      name: template.name, description: template.description ?? '',
    })),
    prompts: prompts.map((prompt) => ({
      name: prompt.name, gateway_name: `${name}${SEPARATOR}${prompt.name}`, description: prompt.description ?? '',
      arguments: (prompt.arguments ?? []).map((argument) => ({ name: argument.name, required: argument.required === true })),
    })),
  };
}

function listTemplates(client: Client) {
  return everyPage(async (cursor) => {
    const page = await client.listResourceTemplates(cursor === undefined ? undefined : { cursor });
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  });
}

function listPrompts(client: Client) {
  return everyPage(async (cursor) => {
    const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
    return { items: page.prompts, nextCursor: page.nextCursor };
  });
}
