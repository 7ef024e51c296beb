// A local provider that answers every path with one JSON body readable as an OpenAI
// Chat, Responses or model-list answer, an Anthropic message or a GenAI response,
// and records every request's bytes: the no-side-door matrix only needs to know what
// reached a provider and to make a provider say something. When a request's bytes
// contain LEAK_TRIGGER, every text field of the answer carries `leak` (the output DLP check).
// A JSON body with `stream: true` to a Chat or Messages path is answered as that dialect's
// event stream, the text split over several events and repeated as reasoning.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const LEAK_TRIGGER = 'please-answer-with-the-secret';
/** Streams only: the secret in the reasoning, the answer itself plain. */
export const REASONING_LEAK_TRIGGER = 'please-think-the-secret';

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
      if (/"stream"\s*:\s*true/.test(body.toString('utf8'))) {
        const reasoning = body.includes(REASONING_LEAK_TRIGGER) ? `thinking of ${leak}` : text;
        return streamAnswer(request.url ?? '', text, reasoning, response);
      }
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

/** Chat or Anthropic Messages events, the text in pieces so a secret is split across events. */
function streamAnswer(path: string, text: string, reasoning: string, response: http.ServerResponse): void {
  const pieces = text.match(/.{1,8}/gs) ?? [];
  const thoughts = reasoning.match(/.{1,8}/gs) ?? [];
  const events: string[] = [];
  if (path.includes('/messages')) {
    const event = (name: string, data: unknown) => events.push(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    event('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'catch-all', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } });
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    for (const piece of pieces) event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
    event('content_block_stop', { type: 'content_block_stop', index: 0 });
    event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } });
    event('message_stop', { type: 'message_stop' });
  } else {
    const chunk = (delta: unknown, finish: string | null = null) => events.push(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'catch-all', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    chunk({ role: 'assistant', content: '' });
    for (const piece of thoughts) chunk({ reasoning_content: piece });
    for (const piece of pieces) chunk({ content: piece });
    chunk({}, 'stop');
    events.push('data: [DONE]\n\n');
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of events) response.write(event);
  response.end();
}
