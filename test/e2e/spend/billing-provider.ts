// A provider-shaped server on loopback for the cut-call budget tests: OpenAI's Chat
// Completions streaming wire format (https://platform.openai.com/docs/api-reference/chat-streaming),
// one content chunk per word, then the finish_reason chunk, then (when asked with
// stream_options.include_usage) the usage chunk, then [DONE]. It bills as OpenAI documents:
// prompt tokens are the o200k_base tokens of every message plus 3 per message and 3 to prime
// the reply; completion tokens, those of the answer. Each request follows the next plan a test
// queued (`plan`), which says where the provider stops on its own; the client does the rest.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer';

export interface StreamPlan {
  /** Send no headers until the caller goes away (a client hanging up before the first byte). */
  holdHeaders?: boolean;
  /** After the finish_reason chunk, wait for the caller to go away instead of sending the usage chunk. */
  holdUsage?: boolean;
  /** Destroy the socket after this many content chunks (the provider cutting the stream). */
  resetAfterChunks?: number;
  /** Go silent after this many content chunks, the connection open (for gw's idle time-out). */
  stallAfterChunks?: number;
  /** Words in the answer (ANSWER_WORDS.length unless said): a long one for a client that hangs up mid-stream, so a
   * loaded machine that reads late still finds the provider streaming (the whole answer takes words × CHUNK_DELAY_MS). */
  words?: number;
}

export interface BilledRequest {
  body: Record<string, unknown>;
  promptTokens: number;
  /** Whether the caller went away before the answer ended. */
  aborted: boolean;
}

export interface BillingProvider {
  url: string;
  requests: BilledRequest[];
  /** The plan for the next request (requests without one stream the whole answer). */
  plan(next: StreamPlan): void;
  /** Resolves when the n-th request (1-based) has arrived. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** The answer every call gets: long enough that a cut after a few words relays a fraction of it. */
const ANSWER_WORDS = Array.from({ length: 40 }, (_, index) => `word${index}`);
const wordsOf = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`);

const CHUNK_DELAY_MS = 25;
const HOLD_LIMIT_MS = 15_000;

function promptTokensOf(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? body.messages as Array<{ role?: string; content?: unknown }> : [];
  const texts = messages.map((message) => `${message.role ?? ''}${typeof message.content === 'string' ? message.content : ''}`);
  return texts.reduce((sum, text) => sum + countTokens(text) + 3, 0) + 3;
}

export async function startBillingProvider(): Promise<BillingProvider> {
  const plans: StreamPlan[] = [];
  const requests: BilledRequest[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const billed: BilledRequest = { body, promptTokens: promptTokensOf(body), aborted: false };
      requests.push(billed);
      for (const wake of waiters.splice(0)) wake();
      const plan = plans.shift() ?? {};
      response.on('close', () => { if (!response.writableFinished) billed.aborted = true; });
      void answer(response, body, billed, plan);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    plan: (next) => { plans.push(next); },
    async received(count) {
      while (requests.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function answer(response: http.ServerResponse, body: Record<string, unknown>, billed: BilledRequest, plan: StreamPlan): Promise<void> {
  if (plan.holdHeaders) {
    await untilGone(response);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  const base = { id: 'chatcmpl-billing', object: 'chat.completion.chunk', created: 1, model: String(body.model), system_fingerprint: 'fp_billing' };
  const frame = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`;
  const send = async (text: string): Promise<boolean> => {
    if (response.destroyed) return false;
    response.write(text);
    await new Promise((resolve) => setTimeout(resolve, CHUNK_DELAY_MS));
    return !response.destroyed;
  };
  if (!await send(frame([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]))) return;
  const words = plan.words === undefined ? ANSWER_WORDS : wordsOf(plan.words);
  for (const [index, word] of words.entries()) {
    if (plan.resetAfterChunks === index) {
      response.socket?.destroy();
      return;
    }
    if (plan.stallAfterChunks === index) {
      await untilGone(response);
      return;
    }
    if (!await send(frame([{ index: 0, delta: { content: index === 0 ? word : ` ${word}` }, finish_reason: null }]))) return;
  }
  if (!await send(frame([{ index: 0, delta: {}, finish_reason: 'stop' }]))) return;
  if (plan.holdUsage) {
    await untilGone(response);
    return;
  }
  const completion = countTokens(words.join(' '));
  const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  if (includeUsage) {
    const usage = { prompt_tokens: billed.promptTokens, completion_tokens: completion, total_tokens: billed.promptTokens + completion };
    if (!await send(frame([], { usage }))) return;
  }
  response.end('data: [DONE]\n\n');
}

async function untilGone(response: http.ServerResponse): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, HOLD_LIMIT_MS);
    response.once('close', () => { clearTimeout(timer); resolve(); });
  });
  if (!response.destroyed) response.destroy();
}
