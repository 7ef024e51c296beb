// A realtime provider on loopback speaking OpenAI's WebSocket events
// (https://platform.openai.com/docs/api-reference/realtime-server-events) for the cut-session
// budget tests. It greets with session.created; on response.create it sends response.created,
// then alternating response.output_text.delta and response.output_audio.delta events (100 ms of
// 24 kHz pcm16 each), then response.done with the usage it bills, unless told to hold that
// (`holdDone`): then it waits for the socket to close. It bills as OpenAI documents: text by
// o200k_base tokens (each conversation item's text plus 3, and 3 to prime the reply), audio at
// one token per 100 ms heard and per 50 ms spoken.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer';
import { WebSocketServer } from 'ws';

const ANSWER_PIECES = Array.from({ length: 12 }, (_, index) => `piece${index} `);
/** 100 ms of 24 kHz mono pcm16. */
export const AUDIO_CHUNK_BYTES = 4_800;
const PCM16_BYTES_PER_SECOND = 48_000;
const DELTA_DELAY_MS = 25;

export interface BilledSession {
  /** What the provider bills the response's input: the text items and the audio appended so far. */
  inputTokens: number;
  closed: boolean;
}

export interface RealtimeBillingProvider {
  url: string;
  sessions: BilledSession[];
  /** Whether the next sessions send response.done (default) or hold it until the socket closes. */
  holdDone: boolean;
  close(): Promise<void>;
}

/** Text tokens of a conversation.item.create, as the provider bills them. */
function itemTokens(text: string): number {
  return countTokens(text) + 3;
}

function audioInputTokens(bytes: number): number {
  return Math.ceil((bytes / PCM16_BYTES_PER_SECOND) * 10);
}

export async function startRealtimeBillingProvider(apiKey: string): Promise<RealtimeBillingProvider> {
  const server = http.createServer((_request, response) => { response.writeHead(404).end(); });
  const sockets = new WebSocketServer({ noServer: true });
  const provider: RealtimeBillingProvider = {
    url: '', sessions: [], holdDone: false,
    async close() {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('upgrade', (request, socket, head) => {
    if (!request.url?.startsWith('/v1/realtime') || request.headers.authorization !== `Bearer ${apiKey}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => {
      const session: BilledSession = { inputTokens: 3, closed: false };
      provider.sessions.push(session);
      const holdDone = provider.holdDone;
      client.once('close', () => { session.closed = true; });
      client.send(JSON.stringify({ type: 'session.created', session: { model: 'gpt-realtime' } }));
      client.on('message', (data) => {
        const event = JSON.parse(String(data)) as { type: string; item?: { content?: Array<{ text?: string }> }; audio?: string };
        if (event.type === 'conversation.item.create') session.inputTokens += itemTokens((event.item?.content ?? []).map((part) => part.text ?? '').join(''));
        if (event.type === 'input_audio_buffer.append') session.inputTokens += audioInputTokens(Buffer.from(event.audio ?? '', 'base64').length);
        if (event.type === 'response.create') void respond(client, session, holdDone);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return provider;
}

async function respond(client: import('ws').WebSocket, session: BilledSession, holdDone: boolean): Promise<void> {
  const send = async (event: unknown): Promise<boolean> => {
    if (client.readyState !== client.OPEN) return false;
    client.send(JSON.stringify(event));
    await new Promise((resolve) => setTimeout(resolve, DELTA_DELAY_MS));
    return client.readyState === client.OPEN;
  };
  if (!await send({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } })) return;
  const audio = Buffer.alloc(AUDIO_CHUNK_BYTES, 1).toString('base64');
  for (const piece of ANSWER_PIECES) {
    if (!await send({ type: 'response.output_text.delta', response_id: 'resp_1', delta: piece })) return;
    if (!await send({ type: 'response.output_audio.delta', response_id: 'resp_1', delta: audio })) return;
  }
  if (holdDone) return;
  const output = countTokens(ANSWER_PIECES.join('')) + ANSWER_PIECES.length * 2;
  await send({ type: 'response.done', response: { id: 'resp_1', status: 'completed', usage: { input_tokens: session.inputTokens, output_tokens: output, total_tokens: session.inputTokens + output } } });
}
