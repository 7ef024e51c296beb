// A provider of every streaming dialect gw talks to (OpenAI Chat and Responses, Anthropic
// Messages, GenAI with alt=sse, Bedrock ConverseStream frames) that bills what the client never
// sees, as the real ones do: hidden reasoning tokens (a request whose text holds REASONING_MARK
// is billed REASONING_TOKENS of output that are never streamed, as OpenAI Chat never streams
// reasoning) and media fetched by URL (IMAGE_TOKENS of input per IMAGE_URL_PREFIX link in the
// body). Each stream: the dialect's preamble, THINK_MS of thinking, one word per WORD_DELAY_MS,
// the dialect's finish event, then (where the dialect sends usage apart) USAGE_DELAY_MS later the
// usage, and the end. Each request's full bill and whether its caller went away are kept.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeEventFrame } from '../../../src/formats/bedrock-converse/event-stream-frames.js';

export type Dialect = 'chat' | 'responses' | 'messages' | 'genai' | 'bedrock';

export const REASONING_MARK = 'think-hard';
const REASONING_TOKENS = 20_000;
/** Every linked image's URL holds this (https:// or s3://): the provider bills IMAGE_TOKENS for each. */
export const IMAGE_URL_PREFIX = 'img.example.test/';
const IMAGE_TOKENS = 1_000;
const PROMPT_TOKENS = 100;
const WORDS = Array.from({ length: 12 }, (_, index) => `tok${index}`);
const THINK_MS = 150;
const WORD_DELAY_MS = 10;
const USAGE_DELAY_MS = 250;

export interface Billed {
  dialect: Dialect;
  /** Input and output tokens the provider bills for the call (output: reasoning included). */
  input: number;
  output: number;
  reasoning: number;
  /** The caller went away before the stream ended. */
  aborted: boolean;
}

export interface HiddenBillingProvider {
  url: string;
  billed: Billed[];
  close(): Promise<void>;
}

function dialectOf(path: string): Dialect {
  if (path.includes('/converse-stream')) return 'bedrock';
  if (path.includes(':streamGenerateContent')) return 'genai';
  if (path.includes('/messages')) return 'messages';
  if (path.includes('/responses')) return 'responses';
  return 'chat';
}

const sse = (name: string | null, data: unknown) => `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** A dialect's stream in four steps: preamble, one word, the finish (with usage where the dialect puts it there), the usage after it. */
interface Script {
  preamble: Array<string | Uint8Array>;
  word(text: string, index: number): string | Uint8Array;
  finish: Array<string | Uint8Array>;
  /** Sent USAGE_DELAY_MS after the finish; empty where the finish carried the usage. */
  usage: Array<string | Uint8Array>;
}

function scriptOf(dialect: Dialect, bill: Billed): Script {
  const visible = bill.output - bill.reasoning;
  switch (dialect) {
    case 'chat': {
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => sse(null, { id: 'chatcmpl-hidden', object: 'chat.completion.chunk', created: 1, model: 'o-bill', choices, ...extra });
      return {
        preamble: [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])],
        word: (text, index) => chunk([{ index: 0, delta: { content: index === 0 ? text : ` ${text}` }, finish_reason: null }]),
        finish: [chunk([{ index: 0, delta: {}, finish_reason: 'stop' }])],
        usage: [chunk([], { usage: { prompt_tokens: bill.input, completion_tokens: bill.output, total_tokens: bill.input + bill.output, completion_tokens_details: { reasoning_tokens: bill.reasoning } } }), sse(null, '[DONE]')],
      };
    }
    case 'responses': {
      let sequence = 0;
      const event = (type: string, data: Record<string, unknown>) => sse(type, { type, sequence_number: sequence++, ...data });
      const response = (status: string, usage: unknown) => ({ id: 'resp_hidden', object: 'response', created_at: 1, status, model: 'o-bill', output: [], usage });
      return {
        preamble: [event('response.created', { response: response('in_progress', null) }),
          event('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] } }),
          event('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })],
        word: (text, index) => event('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: index === 0 ? text : ` ${text}` }),
        finish: [event('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text: WORDS.join(' ') })],
        usage: [event('response.completed', { response: response('completed', { input_tokens: bill.input, output_tokens: bill.output, total_tokens: bill.input + bill.output, output_tokens_details: { reasoning_tokens: bill.reasoning } }) })],
      };
    }
    case 'messages':
      return {
        preamble: [sse('message_start', { type: 'message_start', message: { id: 'msg_hidden', type: 'message', role: 'assistant', model: 'claude-bill', content: [], stop_reason: null, usage: { input_tokens: bill.input, output_tokens: 1 } } }),
          sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })],
        word: (text, index) => sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: index === 0 ? text : ` ${text}` } }),
        finish: [sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
          sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: bill.output } }),
          sse('message_stop', { type: 'message_stop' })],
        usage: [],
      };
    case 'genai':
      return {
        preamble: [],
        word: (text, index) => sse(null, { candidates: [{ content: { role: 'model', parts: [{ text: index === 0 ? text : ` ${text}` }] }, index: 0 }], modelVersion: 'gemini-bill' }),
        finish: [sse(null, { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: bill.input, candidatesTokenCount: visible, thoughtsTokenCount: bill.reasoning, totalTokenCount: bill.input + bill.output }, modelVersion: 'gemini-bill' })],
        usage: [],
      };
    case 'bedrock':
      return {
        preamble: [encodeEventFrame('messageStart', { role: 'assistant' })],
        word: (text, index) => encodeEventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: index === 0 ? text : ` ${text}` } }),
        finish: [encodeEventFrame('contentBlockStop', { contentBlockIndex: 0 }), encodeEventFrame('messageStop', { stopReason: 'end_turn' })],
        usage: [encodeEventFrame('metadata', { usage: { inputTokens: bill.input, outputTokens: bill.output, totalTokens: bill.input + bill.output }, metrics: { latencyMs: 1 } })],
      };
  }
}

function billOf(dialect: Dialect, body: string): Billed {
  const images = body.split(IMAGE_URL_PREFIX).length - 1;
  const reasoning = body.includes(REASONING_MARK) ? REASONING_TOKENS : 0;
  return { dialect, input: PROMPT_TOKENS + images * IMAGE_TOKENS, output: WORDS.length + reasoning, reasoning, aborted: false };
}

export async function startHiddenBillingProvider(): Promise<HiddenBillingProvider> {
  const billed: Billed[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const dialect = dialectOf(request.url ?? '/');
      const bill = billOf(dialect, Buffer.concat(chunks).toString('utf8'));
      billed.push(bill);
      response.on('close', () => { if (!response.writableFinished) bill.aborted = true; });
      void stream(response, scriptOf(dialect, bill), dialect);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, billed,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function stream(response: http.ServerResponse, script: Script, dialect: Dialect): Promise<void> {
  response.writeHead(200, { 'content-type': dialect === 'bedrock' ? 'application/vnd.amazon.eventstream' : 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  const send = async (pieces: Array<string | Uint8Array>, delayMs: number): Promise<boolean> => {
    if (response.destroyed) return false;
    for (const piece of pieces) response.write(piece);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return !response.destroyed;
  };
  if (!await send(script.preamble, THINK_MS)) return;
  for (const [index, word] of WORDS.entries()) if (!await send([script.word(word, index)], WORD_DELAY_MS)) return;
  if (!await send(script.finish, script.usage.length > 0 ? USAGE_DELAY_MS : 0)) return;
  response.end(script.usage.length > 0 ? Buffer.concat(script.usage.map((piece) => Buffer.from(piece))) : undefined);
}
