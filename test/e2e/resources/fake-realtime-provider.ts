// A realtime provider speaking OpenAI's WebSocket events, for the governance tests:
// it greets with `session.created` (naming the model it was asked for), acknowledges
// each event with `<type>.ack`, echoes binary frames, and on a test-only `say` event
// streams the given pieces (base64, so the gateway's input DLP does not see a secret
// the test wants the provider to say) as `response.output_text.delta` events, then a
// `response.done` carrying the usage asked for. It records every upgrade and message.
import http from 'node:http';
import { WebSocketServer } from 'ws';

export interface FakeRealtimeProvider {
  url: string;
  /** Every accepted upgrade: path with query, and headers. */
  upgrades: Array<{ path: string; headers: http.IncomingHttpHeaders }>;
  /** Every text event received, as sent; binary frames as `<binary N bytes>`. */
  messages: string[];
  close(): Promise<void>;
}

interface SayEvent {
  type: 'say';
  /** base64 of each delta's text. */
  pieces: string[];
  tokens?: number;
}

export async function startFakeRealtimeProvider(apiKey: string): Promise<FakeRealtimeProvider> {
  const upgrades: FakeRealtimeProvider['upgrades'] = [];
  const messages: string[] = [];
  const server = http.createServer((_request, response) => { response.writeHead(404).end(); });
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (!request.url?.startsWith('/v1/realtime') || request.headers.authorization !== `Bearer ${apiKey}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 26\r\n\r\n{"error":{"message":"no"}}');
      return;
    }
    upgrades.push({ path: request.url, headers: request.headers });
    sockets.handleUpgrade(request, socket, head, (client) => {
      client.send(JSON.stringify({ type: 'session.created', session: { model: new URL(request.url!, 'http://x').searchParams.get('model') } }));
      client.on('message', (data, isBinary) => {
        if (isBinary) {
          messages.push(`<binary ${(data as Buffer).length} bytes>`);
          return client.send(data, { binary: true });
        }
        const text = String(data);
        messages.push(text);
        const event = JSON.parse(text) as { type: string };
        if (event.type !== 'say') return client.send(JSON.stringify({ type: `${event.type}.ack` }));
        const say = event as SayEvent;
        for (const piece of say.pieces) client.send(JSON.stringify({ type: 'response.output_text.delta', response_id: 'resp_1', delta: Buffer.from(piece, 'base64').toString('utf8') }));
        const total = say.tokens ?? 10;
        client.send(JSON.stringify({ type: 'response.done', response: { id: 'resp_1', status: 'completed', usage: { total_tokens: total, input_tokens: total - 1, output_tokens: 1 } } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`, upgrades, messages,
    async close() {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
