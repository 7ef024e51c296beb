// A remote MCP server (the official SDK's, streamable HTTP) for the no-side-door matrix's
// /mcp row: it records every request's bytes, echoes its text, and its `leak` tool answers
// with the secret it was given (the output check). Like the catch-all provider, it only needs
// to say what reached it and to make it say something.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface CatchAllMcpServer {
  url: string;
  /** Every request's headers and body, as text. */
  everything(): string;
  requestCount(): number;
  close(): Promise<void>;
}

export async function startCatchAllMcpServer(leak: string): Promise<CatchAllMcpServer> {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push(`${JSON.stringify(request.headers)}\n${text}`);
      const mcp = new McpServer({ name: 'catch-all', version: '1.0.0' });
      mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text: said }) => ({ content: [{ type: 'text', text: `echo: ${said}` }] }));
      mcp.registerTool('leak', { inputSchema: {} }, async () => ({ content: [{ type: 'text', text: `here it is: ${leak}` }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => { void transport.close(); void mcp.close(); });
      await mcp.connect(transport);
      await transport.handleRequest(request, response, text ? JSON.parse(text) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    everything: () => seen.join('\n'),
    requestCount: () => seen.length,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
