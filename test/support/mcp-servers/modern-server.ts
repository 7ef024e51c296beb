// A tool server that speaks only MCP 2026-07-28 (the official 2.x server, its HTTP entry with
// `legacy: 'reject'`: an initialize handshake is refused), served over plain node:http for the
// MCP revision tests. It keeps every request it got (the body's text, its Mcp-Method header and
// protocol version), so a test can say what reached it and in which revision. Tools: echo,
// contact (a result holding an email), leak (a result holding `secret`).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

interface SeenRequest {
  text: string;
  method: string | undefined;
  version: string | undefined;
}

export interface ModernMcpServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

function createModernServer(secret: string): McpServer {
  const server = new McpServer({ name: 'modern', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: `modern echo: ${text}` }] }));
  server.registerTool('contact', { description: 'Who to ask' }, async () => ({ content: [{ type: 'text', text: 'ask ada.lovelace@example.com about it' }] }));
  server.registerTool('leak', { description: 'Answers with a credential' }, async () => ({ content: [{ type: 'text', text: `the token is ${secret}` }] }));
  return server;
}

export async function startModernMcpServer(secret: string): Promise<ModernMcpServer> {
  const handler = createMcpHandler(() => createModernServer(secret), { legacy: 'reject' });
  const seen: SeenRequest[] = [];
  const http = createServer((request: IncomingMessage, response: ServerResponse) => void serve(request, response));
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(Buffer.from(chunk));
    const body = Buffer.concat(chunks);
    const header = (name: string) => { const value = request.headers[name]; return typeof value === 'string' ? value : undefined; };
    seen.push({ text: body.toString('utf8'), method: header('mcp-method'), version: header('mcp-protocol-version') });
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
    const answer = await handler.fetch(new Request(`http://127.0.0.1${request.url ?? '/'}`, { method: request.method, headers, ...(request.method === 'POST' ? { body } : {}) }));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body !== null) for await (const chunk of answer.body) response.write(chunk);
    response.end();
  }
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => { http.closeAllConnections(); http.close(() => resolve()); });
    },
  };
}
