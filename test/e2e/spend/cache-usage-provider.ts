// A local provider of every dialect gw talks to (OpenAI Chat and Responses, Anthropic Messages,
// GenAI, Bedrock Converse and ConverseStream) whose answers report prompt-cache usage in each
// dialect's own fields, streamed or not, so the cache-economics test can check what gw records
// and prices. It keeps every request's path and body bytes (the cache-marker tests read them).
// A body holding FAIL_TRIGGER is refused with a 503 on the Anthropic path (a fallback's cause).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeEventFrame } from '../../../src/formats/bedrock-converse/event-stream-frames.js';

export const FAIL_TRIGGER = 'please-fail-over';

type Dialect = 'chat' | 'responses' | 'messages' | 'genai' | 'bedrock';

/** Each dialect's usage object as the provider sends it (the same figures streamed or not). */
export interface CacheUsages {
  chat: Record<string, unknown>;
  responses: Record<string, unknown>;
  messages: Record<string, unknown>;
  genai: Record<string, unknown>;
  bedrock: Record<string, unknown>;
}

export interface SeenRequest { path: string; body: Buffer }

export interface CacheUsageProvider {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

function dialectOf(path: string): Dialect {
  if (path.includes('/converse')) return 'bedrock';
  if (path.includes(':streamGenerateContent') || path.includes(':generateContent')) return 'genai';
  if (path.includes('/messages')) return 'messages';
  if (path.includes('/responses')) return 'responses';
  return 'chat';
}

const sse = (name: string | null, data: unknown) => `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const TEXT = 'cached answer';

function answer(dialect: Dialect, usage: Record<string, unknown>): unknown {
  switch (dialect) {
    case 'messages': return { id: 'msg_1', type: 'message', role: 'assistant', model: 'cache', content: [{ type: 'text', text: TEXT }], stop_reason: 'end_turn', stop_sequence: null, usage };
    case 'genai': return { candidates: [{ content: { role: 'model', parts: [{ text: TEXT }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage };
    case 'bedrock': return { output: { message: { role: 'assistant', content: [{ text: TEXT }] } }, stopReason: 'end_turn', usage, metrics: { latencyMs: 1 } };
    case 'responses': return { id: 'resp_1', object: 'response', created_at: 0, status: 'completed', model: 'cache', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: TEXT, annotations: [] }] }], usage };
    case 'chat': return { id: 'c1', object: 'chat.completion', created: 0, model: 'cache', choices: [{ index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' }], usage };
  }
}

/** The dialect's stream; usage where that dialect puts it (Anthropic: input side in message_start, output in message_delta). */
function events(dialect: Dialect, usage: Record<string, unknown>): Array<string | Uint8Array> {
  switch (dialect) {
    case 'chat': {
      const chunk = (delta: unknown, finish: string | null = null) => sse(null, { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'cache', choices: [{ index: 0, delta, finish_reason: finish }] });
      return [chunk({ role: 'assistant', content: '' }), chunk({ content: TEXT }), chunk({}, 'stop'),
        sse(null, { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'cache', choices: [], usage }), sse(null, '[DONE]')];
    }
    case 'responses': {
      const response = (status: string) => ({ id: 'resp_1', object: 'response', created_at: 0, status, model: 'cache', output: [], usage: status === 'completed' ? usage : null });
      let sequence = 0;
      const event = (type: string, data: Record<string, unknown>) => sse(type, { type, sequence_number: sequence++, ...data });
      return [
        event('response.created', { response: response('in_progress') }),
        event('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] } }),
        event('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
        event('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: TEXT }),
        event('response.completed', { response: response('completed') }),
      ];
    }
    case 'messages': {
      const { output_tokens: output, ...inputSide } = usage;
      return [
        sse('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'cache', content: [], stop_reason: null, usage: { ...inputSide, output_tokens: 1 } } }),
        sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: TEXT } }),
        sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
        sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: output } }),
        sse('message_stop', { type: 'message_stop' }),
      ];
    }
    case 'genai':
      return [
        sse(null, { candidates: [{ content: { role: 'model', parts: [{ text: TEXT }] }, index: 0 }] }),
        sse(null, { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage }),
      ];
    case 'bedrock':
      return [
        encodeEventFrame('messageStart', { role: 'assistant' }),
        encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: TEXT } }),
        encodeEventFrame('contentBlockStop', { contentBlockIndex: 0 }),
        encodeEventFrame('messageStop', { stopReason: 'end_turn' }),
        encodeEventFrame('metadata', { usage, metrics: { latencyMs: 1 } }),
      ];
  }
}

function isStream(dialect: Dialect, path: string, body: string): boolean {
  if (dialect === 'bedrock') return path.endsWith('/converse-stream');
  if (dialect === 'genai') return path.includes(':streamGenerateContent');
  return /"stream"\s*:\s*true/.test(body);
}

export async function startCacheUsageProvider(usages: CacheUsages): Promise<CacheUsageProvider> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const body = Buffer.concat(chunks);
      requests.push({ path, body });
      const dialect = dialectOf(path);
      if (dialect === 'messages' && body.includes(FAIL_TRIGGER)) {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'overloaded' } }));
        return;
      }
      const usage = usages[dialect];
      if (!isStream(dialect, path, body.toString('utf8'))) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer(dialect, usage)));
        return;
      }
      response.writeHead(200, { 'content-type': dialect === 'bedrock' ? 'application/vnd.amazon.eventstream' : 'text/event-stream' });
      for (const event of events(dialect, usage)) response.write(event);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
