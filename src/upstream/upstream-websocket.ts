// The provider side of a realtime WebSocket session (src/server/realtime-proxy.ts).
// Resolves once the provider accepted the handshake, or with its refusal (status and
// body, relayed to the client) or a connect failure: the client's own handshake is
// answered only then, so a refusal keeps its real status.
import WebSocket from 'ws';
import type { IncomingMessage } from 'node:http';

export type UpstreamSocketOpening =
  | { ok: true; socket: WebSocket }
  | { ok: false; status: number; headers: IncomingMessage['headers']; body: Buffer }
  | { ok: false; status: null; failure: string };

const MAX_REFUSAL_BYTES = 64 * 1024;

export function openUpstreamWebSocket(url: string, headers: Record<string, string>, protocols: string[], connectTimeoutMs: number): Promise<UpstreamSocketOpening> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, protocols, { headers, handshakeTimeout: connectTimeoutMs, followRedirects: false, perMessageDeflate: false });
    // Paused until the client's side is bridged: a provider that speaks first
    // (session.created) must not lose its event to a listener not yet attached.
    socket.once('open', () => { socket.pause(); resolve({ ok: true, socket }); });
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => { size += chunk.length; if (size <= MAX_REFUSAL_BYTES) chunks.push(chunk); });
      response.once('end', () => resolve({ ok: false, status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
      response.once('error', () => resolve({ ok: false, status: null, failure: 'refusal body cut' }));
    });
    socket.once('error', (error: Error & { code?: string }) => resolve({ ok: false, status: null, failure: error.code ?? error.message }));
  });
}
