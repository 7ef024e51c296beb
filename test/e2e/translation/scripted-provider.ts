// A local provider speaking one wire format with answers scripted by the test: it records the
// exact bytes, path and headers of every request, and answers each with the next handler.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
  json(): Record<string, unknown>;
}

export interface ScriptedAnswer {
  status?: number;
  /** A JSON body, or SSE events ({ event?, data }) sent as text/event-stream. */
  json?: unknown;
  events?: Array<{ event?: string; data: unknown }>;
}

export type Handler = (request: SeenRequest) => ScriptedAnswer;

export interface ScriptedProvider {
  url: string;
  requests: SeenRequest[];
  /** Queues the answers for the next requests, in order. */
  script(...handlers: Handler[]): void;
  close(): Promise<void>;
}

function send(answer: ScriptedAnswer, response: http.ServerResponse): void {
  if (answer.events) {
    response.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream' });
    for (const { event, data } of answer.events) response.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    response.end();
    return;
  }
  const bytes = Buffer.from(JSON.stringify(answer.json ?? {}));
  response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  response.end(bytes);
}

export async function startScriptedProvider(): Promise<ScriptedProvider> {
  const requests: SeenRequest[] = [];
  const queue: Handler[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const seen: SeenRequest = {
        method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, bytes,
        json: () => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>,
      };
      requests.push(seen);
      const handler = queue.shift();
      if (!handler) return send({ status: 500, json: { error: { message: 'no scripted answer left' } } }, response);
      try {
        send(handler(seen), response);
      } catch (error) {
        send({ status: 500, json: { error: { message: `script failed: ${(error as Error).message}` } } }, response);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, requests,
    script: (...handlers) => { queue.push(...handlers); },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
