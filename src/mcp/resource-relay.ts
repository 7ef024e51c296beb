// resources/list, resources/templates/list and resources/read through gw: each resource as
// gw-mcp://SERVER/<its URI, encoded>, a template as gw-mcp://SERVER/<its template>. The policy
// names a resource SERVER__URI (the server's own URI): listed only when allowed, read only when
// allowed and, besides, only a URI the server listed unless an allow_resources pattern names it
// (a URI made up by the agent, or filled into a template, is not the server's offer).
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { resourceAllowedByPattern } from '../policy/evaluate-mcp-access.js';
import { gather, reach, refusal, refusedError, upstreamError, type McpCallContext } from './mcp-context.js';
import { RESOURCE_SCHEME, SEPARATOR, splitResourceUri } from './relay-call.js';
import type { RelayHandler } from './relay.js';
import { everyPage } from './upstream-servers.js';

const capability = (server: string, uri: string) => ({ kind: 'resource' as const, name: `${server}${SEPARATOR}${uri}` });

export function listResources(context: McpCallContext): RelayHandler<'resources/list'> {
  return async () => ({
    resources: await gather(context, async (_client, server) => (await context.upstream.listResources(server))
      .filter((resource) => refusal(context, server, capability(server, resource.uri)) === null)
      .map((resource) => ({ ...resource, uri: `${RESOURCE_SCHEME}${server}/${encodeURIComponent(resource.uri)}` }))),
  });
}

export function listResourceTemplates(context: McpCallContext): RelayHandler<'resources/templates/list'> {
  return async () => ({
    resourceTemplates: await gather(context, async (client, server) => (await everyPage(async (cursor) => {
      const page = await client.listResourceTemplates(cursor === undefined ? undefined : { cursor });
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    }))
      .filter((template) => refusal(context, server, capability(server, template.uriTemplate)) === null)
      // Not encoded: the agent fills the template in, and gw decodes what it sends back.
      .map((template) => ({ ...template, uriTemplate: `${RESOURCE_SCHEME}${server}/${template.uriTemplate}` }))),
  });
}

export function readResource(context: McpCallContext): RelayHandler<'resources/read'> {
  return async (request, _extra, call) => {
    const split = splitResourceUri(request.params.uri);
    if (split === null) {
      call.settle('not_found');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `the URI is not a ${RESOURCE_SCHEME}SERVER/… resource of this gateway (see resources/list)`);
    }
    const { server, uri } = split;
    if (!context.upstream.has(server)) {
      call.settle('not_found');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no MCP server "${server}" on this gateway (see resources/list)`);
    }
    const reason = refusal(context, server, capability(server, uri));
    if (reason !== null) {
      call.settle('refused');
      throw refusedError(reason);
    }
    const client = await reach(context, server);
    if (!resourceAllowedByPattern(context.policies, capability(server, uri).name) && !await listed(context, server, uri)) {
      call.settle('refused');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Refused: MCP server "${server}" does not list this resource (see resources/list); a policy's allow_resources pattern (SERVER__URI) can allow a URI it does not list.`);
    }
    try {
      const read = await client.readResource({ uri });
      return { ...read, contents: read.contents.map((content) => ({ ...content, uri: request.params.uri })) };
    } catch (error) {
      call.settle('upstream_error');
      throw upstreamError(context, server, error);
    }
  };
}

async function listed(context: McpCallContext, server: string, uri: string): Promise<boolean> {
  try {
    return await context.upstream.hasResource(server, uri);
  } catch (error) {
    throw upstreamError(context, server, error);
  }
}
