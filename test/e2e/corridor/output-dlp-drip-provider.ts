// A local provider of every dialect gw talks to (OpenAI Chat and Responses, Anthropic
// Messages, GenAI, Bedrock ConverseStream) that streams its answer ONE CHARACTER PER
// EVENT, each event its own write a moment after the last, so gw reads them one by one
// as a slow model's tokens arrive. The output DLP hold-back test plants a secret in it.
// A request whose text holds FAIL_TRIGGER gets a 4xx/5xx error body in the dialect's
// shape carrying the secret; HEADER_TRIGGER adds a response header carrying AWS_KEY.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeEventFrame } from '../../../src/formats/bedrock-converse/event-stream-frames.js';

export const LEAK_TRIGGER = 'please-answer-with-the-secret';
export const FAIL_TRIGGER = 'please-fail-with-the-secret';
export const FAIL_503_TRIGGER = 'please-fail-503-with-the-secret';
export const HEADER_TRIGGER = 'please-leak-a-header';

export interface DripProvider {
  url: string;
  /** Paths asked so far, in order. */
  paths: string[];
  close(): Promise<void>;
}

type Dialect = 'chat' | 'responses' | 'messages' | 'genai' | 'bedrock';

function dialectOf(path: string): Dialect {
  if (path.includes('/converse')) return 'bedrock';
  if (path.includes(':streamGenerateContent') || path.includes(':generateContent')) return 'genai';
  if (path.includes('/messages')) return 'messages';
  if (path.includes('/responses')) return 'responses';
  return 'chat';
}

const sse = (name: string | null, data: unknown) => `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** The dialect's events around `text`, one character per delta event. */
function events(dialect: Dialect, text: string): Array<string | Uint8Array> {
  const chars = [...text];
  switch (dialect) {
    case 'chat': {
      const chunk = (delta: unknown, finish: string | null = null) => sse(null, { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'drip', choices: [{ index: 0, delta, finish_reason: finish }] });
      return [chunk({ role: 'assistant', content: '' }), ...chars.map((c) => chunk({ content: c })), chunk({}, 'stop'),
        sse(null, { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'drip', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), sse(null, '[DONE]')];
    }
    case 'responses': {
      const response = (status: string) => ({ id: 'resp_1', object: 'response', created_at: 0, status, model: 'drip', output: [], usage: status === 'completed' ? { input_tokens: 1, output_tokens: 1, total_tokens: 2 } : null });
      let sequence = 0;
      const event = (type: string, data: Record<string, unknown>) => sse(type, { type, sequence_number: sequence++, ...data });
      return [
        event('response.created', { response: response('in_progress') }),
        event('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] } }),
        event('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
        ...chars.map((c) => event('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: c })),
        event('response.completed', { response: response('completed') }),
      ];
    }
    case 'messages':
      return [
        sse('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'drip', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } }),
        sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        ...chars.map((c) => sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: c } })),
        sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
        sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
        sse('message_stop', { type: 'message_stop' }),
      ];
    case 'genai':
      return [
        ...chars.map((c) => sse(null, { candidates: [{ content: { role: 'model', parts: [{ text: c }] }, index: 0 }] })),
        sse(null, { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } }),
      ];
    case 'bedrock':
      return [
        encodeEventFrame('messageStart', { role: 'assistant' }),
        ...chars.map((c) => encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: c } })),
        encodeEventFrame('contentBlockStop', { contentBlockIndex: 0 }),
        encodeEventFrame('messageStop', { stopReason: 'end_turn' }),
        encodeEventFrame('metadata', { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } }),
      ];
  }
}

/** The dialect's error body, its message carrying `text`. */
function errorBody(dialect: Dialect, status: number, text: string): unknown {
  switch (dialect) {
    case 'messages': return { type: 'error', error: { type: status >= 500 ? 'overloaded_error' : 'invalid_request_error', message: text } };
    case 'genai': return { error: { code: status, message: text, status: status >= 500 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT' } };
    case 'bedrock': return { message: text };
    default: return { error: { message: text, type: 'invalid_request_error', code: null } };
  }
}

function nonStreamAnswer(dialect: Dialect, text: string): unknown {
  switch (dialect) {
    case 'messages': return { id: 'msg_1', type: 'message', role: 'assistant', model: 'drip', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    case 'genai': return { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } };
    case 'bedrock': return { output: { message: { role: 'assistant', content: [{ text }] } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } };
    case 'responses': return { id: 'resp_1', object: 'response', created_at: 0, status: 'completed', model: 'drip', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
    default: return { id: 'c1', object: 'chat.completion', created: 0, model: 'drip', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
  }
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 2));

/** The answer: `leak` when the request holds LEAK_TRIGGER, else `plain`; `awsKey`: what HEADER_TRIGGER puts in `x-upstream-debug`. */
export async function startDripProvider(texts: { leak: string; plain: string }, secret: string, awsKey: string): Promise<DripProvider> {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      paths.push(path);
      const body = Buffer.concat(chunks).toString('utf8');
      const dialect = dialectOf(path);
      const answer = body.includes(LEAK_TRIGGER) ? texts.leak : texts.plain;
      const extra: Record<string, string> = body.includes(HEADER_TRIGGER) ? { 'x-upstream-debug': `key=${awsKey}` } : {};
      const failStatus = body.includes(FAIL_503_TRIGGER) ? 503 : body.includes(FAIL_TRIGGER) ? 400 : 0;
      if (failStatus > 0) {
        const bytes = JSON.stringify(errorBody(dialect, failStatus, `the token ${secret} was rejected`));
        // retry-after is the one provider header a translated refusal carries to the client.
        const retry = body.includes(HEADER_TRIGGER) ? { 'retry-after': awsKey } : {};
        response.writeHead(failStatus, { 'content-type': 'application/json', ...(dialect === 'bedrock' ? { 'x-amzn-errortype': 'ValidationException' } : {}), ...extra, ...retry });
        response.end(bytes);
        return;
      }
      const streaming = dialect === 'bedrock' ? path.endsWith('/converse-stream') : dialect === 'genai' ? path.includes(':streamGenerateContent') : /"stream"\s*:\s*true/.test(body);
      if (!streaming) {
        response.writeHead(200, { 'content-type': 'application/json', ...extra });
        response.end(JSON.stringify(nonStreamAnswer(dialect, answer)));
        return;
      }
      response.writeHead(200, { 'content-type': dialect === 'bedrock' ? 'application/vnd.amazon.eventstream' : 'text/event-stream', ...extra });
      void (async () => {
        for (const event of events(dialect, answer)) {
          if (response.destroyed) return;
          response.write(event);
          await pause();
        }
        response.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, paths,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
