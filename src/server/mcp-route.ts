// POST /mcp (and GET/DELETE, which a stateless server answers 405): the MCP gateway
// (src/mcp) behind the same door as inference. The door has authenticated the caller and
// applied the body limits; governOperation applies the caller's policies and rate limits
// and resolves their DLP rules; the request's audit record (written when the response
// closes) carries what src/mcp noted: the MCP method, server and tool, DLP rule ids, outcome.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../mcp/mcp-gateway.js';
import type { UpstreamServers } from '../mcp/upstream-servers.js';
import { governOperation } from '../pipeline/govern-request.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { RouteEntry } from '../pipeline/route-table.js';
import { GatewayError } from '../errors.js';
import { ClientCancel } from '../upstream/cancel-signal.js';
import { sendError } from './send-error.js';

export const MCP_ROUTE: RouteEntry = { method: 'POST', url: '/mcp', family: 'operational', operation: 'mcp', authenticated: true, jsonBody: true };

export function registerMcpRoute(app: FastifyInstance, services: GatewayServices, upstream: UpstreamServers): void {
  app.route({
    method: ['POST', 'GET', 'DELETE'], url: '/mcp', config: { route: MCP_ROUTE },
    handler: (request, reply) => serveMcp(services, upstream, request, reply),
  });
}

async function serveMcp(services: GatewayServices, upstream: UpstreamServers, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const state = request.gw;
  let governed;
  try {
    governed = await governOperation({
      id: request.id, method: request.method, route: MCP_ROUTE, family: 'operational', params: {}, query: new URLSearchParams(),
      rawPath: request.raw.url ?? request.url, headers: request.headers, body: request.body, rawBody: state.rawBody,
      identity: state.identity!, signal: new ClientCancel(),
    }, 'mcp', services, state.trace);
  } catch (error) {
    return sendError(reply, 'operational', error instanceof GatewayError ? error : new GatewayError('GW_ERR_SERVER_INTERNAL'));
  }
  const server = createMcpServer({
    upstream, policies: governed.policies, dlp: governed.dlp, trace: state.trace,
    countCall: (name, tool, outcome) => services.metrics.mcpCalls.inc({ server: name, tool, outcome }),
  });
  // Stateless: every HTTP request is a whole exchange, so any instance of a hub can answer it.
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
  return undefined;
}
