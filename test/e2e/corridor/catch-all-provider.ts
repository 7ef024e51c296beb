// A local provider that answers every path with one JSON body readable as an OpenAI
// Chat, Responses or model-list answer, an Anthropic message or a GenAI response,
// and records every request's bytes: the no-side-door matrix only needs to know what
// reached a provider and to make a provider say something. When a request's bytes
// contain LEAK_TRIGGER, every text field of the answer carries `leak` (the output DLP check).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const LEAK_TRIGGER = 'please-answer-with-the-secret';

export interface CaughtRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface CatchAllProvider {
  url: string;
  port: number;
  requests: CaughtRequest[];
  /** Everything any request sent, headers and body, as text. */
  everything(): string;
  close(): Promise<void>;
}

function answer(text: string): unknown {
  return {
    id: 'obj_catch_all', object: 'chat.completion', created: 0, model: 'catch-all', status: 'completed',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
    type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null,
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    data: [{ id: 'catch-all-model', object: 'model', index: 0, embedding: [0.1], text }],
    models: [{ name: 'models/catch-all-model' }],
    results: [{ index: 0, relevance_score: 0.5 }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, input_tokens: 1, output_tokens: 1 },
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  };
}

export async function startCatchAllProvider(leak: string): Promise<CatchAllProvider> {
  const requests: CaughtRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    // An upload cut by gw ends in an error or an abort: what arrived is still recorded.
    const finish = () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body });
      if (response.headersSent || response.destroyed) return;
      const text = body.includes(LEAK_TRIGGER) ? `here it is: ${leak}` : 'a plain answer';
      const bytes = Buffer.from(JSON.stringify(answer(text)));
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
      response.end(bytes);
    };
    request.on('end', finish);
    request.on('error', finish);
    request.on('aborted', finish);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, port, requests,
    everything: () => requests.map((seen) => `${seen.method} ${seen.path} ${JSON.stringify(seen.headers)} ${seen.body.toString('latin1')}`).join('\n'),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
