// The MCP SDK (the official 2.x client, with zod and ajv beneath it) is loaded on first use, not
// at every start: most gateways front no MCP server, and a laptop's sidecar starts often
// (measured with 1.x: `gw serve` idle 129 → 122 MB RSS). The client side loads here when gw
// first connects to an upstream server; the server side with the first call to /mcp
// (src/server/mcp-route.ts).

export type ClientSdk = Awaited<ReturnType<typeof importClientSdk>>;

let clientSdk: Promise<ClientSdk> | null = null;

async function importClientSdk() {
  const [client, stdio] = await Promise.all([import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')]);
  /**
   * The SDK probes a server's revision on a throwaway sibling process when given its own stdio
   * transport exactly, and on the connection itself when given a subclass: one process, one
   * round trip, rather than a second start of the server before every first call (measured:
   * Claude Code gave up on gw's tools/list while a loaded machine started both).
   */
  class InPlaceStdioClientTransport extends stdio.StdioClientTransport {}
  return {
    Client: client.Client, SSEClientTransport: client.SSEClientTransport, StdioClientTransport: InPlaceStdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment, StreamableHTTPClientTransport: client.StreamableHTTPClientTransport,
  };
}

export function loadClientSdk(): Promise<ClientSdk> {
  clientSdk ??= importClientSdk().catch((error: unknown) => { clientSdk = null; throw error; });
  return clientSdk;
}
