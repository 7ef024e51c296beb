// The MCP SDK (with zod, ajv and hono beneath it) is loaded on first use, not at every start:
// most gateways front no MCP server, and a laptop's sidecar starts often (measured: `gw serve`
// idle 129 → 122 MB RSS). The client side loads here when gw first connects to an upstream
// server; the server side with the first call to /mcp (src/server/mcp-route.ts).

export type ClientSdk = Awaited<ReturnType<typeof importClientSdk>>;

let clientSdk: Promise<ClientSdk> | null = null;

async function importClientSdk() {
  const [client, sse, stdio, streamableHttp, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client, SSEClientTransport: sse.SSEClientTransport, StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment, StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
  };
}

export function loadClientSdk(): Promise<ClientSdk> {
  clientSdk ??= importClientSdk().catch((error: unknown) => { clientSdk = null; throw error; });
  return clientSdk;
}
