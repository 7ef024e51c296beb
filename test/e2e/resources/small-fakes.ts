// Local stand-ins for providers with one or two JSON endpoints each, in their own
// wire formats: Cohere, Jina and Voyage rerank, Mistral OCR, Anthropic message
// batches. Each records what it received.
import http from 'node:http';

export interface Seen { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown }
export interface JsonFake { url: string; seen: Seen[]; close(): Promise<void> }
type Reply = (body: Record<string, unknown>, path: string, method: string) => [number, unknown];

async function startJsonFake(routes: Record<string, Reply>): Promise<JsonFake> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => void (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? {} : JSON.parse(text) as Record<string, unknown>;
    const path = (request.url ?? '/').split('?')[0]!;
    seen.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body });
    const key = Object.keys(routes).find((pattern) => new RegExp(`^${pattern}$`).test(`${request.method} ${path}`));
    const [status, reply] = key ? routes[key]!(body, path, request.method ?? 'GET') : [404, { message: 'no route' }];
    // A string is sent as it is (a JSON Lines download); anything else as JSON.
    const bytes = Buffer.from(typeof reply === 'string' ? reply : JSON.stringify(reply));
    response.writeHead(status, { 'content-type': typeof reply === 'string' ? 'application/binary' : 'application/json', 'content-length': String(bytes.length) });
    response.end(bytes);
  })());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const scores = (documents: unknown) => (documents as string[]).map((_text, index) => ({ index, relevance_score: 1 / (index + 1) })).reverse();

// https://docs.cohere.com/reference/rerank (v2)
export const startCohereFake = () => startJsonFake({
  'POST /v2/rerank': (body) => [200, { id: 'co-rerank-1', results: scores(body.documents).slice(0, Number(body.top_n ?? 99)), meta: { billed_units: { search_units: 1 } } }],
});
// https://jina.ai/reranker
export const startJinaFake = () => startJsonFake({
  'POST /v1/rerank': (body) => [200, { model: body.model, usage: { total_tokens: 42 }, results: scores(body.documents).map((result) => ({ ...result, document: { text: (body.documents as string[])[result.index] } })) }],
});
// https://docs.voyageai.com/reference/reranker-api
export const startVoyageFake = () => startJsonFake({
  'POST /v1/rerank': (body) => [200, { object: 'list', data: scores(body.documents).slice(0, Number(body.top_k ?? 99)), model: body.model, usage: { total_tokens: 17 } }],
});
// https://docs.mistral.ai/api/#tag/ocr
export const startMistralFake = () => startJsonFake({
  'POST /v1/ocr': (body) => [200, { model: body.model, pages: [{ index: 0, markdown: '# Invoice 42', images: [], dimensions: { dpi: 200, height: 100, width: 80 } }], usage_info: { pages_processed: 1, doc_size_bytes: 1234 } }],
  'POST /v1/chat/completions': (body) => [200, { id: 'chatcmpl-m', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: 'bonjour' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }],
});
// https://docs.anthropic.com/en/api/creating-message-batches
export const startAnthropicBatchFake = () => startJsonFake({
  'POST /v1/messages/batches': () => [200, { id: 'msgbatch_01abc', type: 'message_batch', processing_status: 'in_progress', request_counts: { processing: 1, succeeded: 0, errored: 0, canceled: 0, expired: 0 } }],
  'GET /v1/messages/batches/msgbatch_01abc': () => [200, { id: 'msgbatch_01abc', type: 'message_batch', processing_status: 'in_progress' }],
  'POST /v1/messages/batches/msgbatch_01abc/cancel': () => [200, { id: 'msgbatch_01abc', type: 'message_batch', processing_status: 'canceling' }],
  'GET /v1/messages/batches/msgbatch_01abc/results': () => [200, ANTHROPIC_BATCH_RESULTS],
});

const resultLine = (customId: string, result: unknown) => `${JSON.stringify({ custom_id: customId, result })}\n`;
const message = (usage: unknown) => ({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn', usage });
/** https://docs.anthropic.com/en/api/retrieving-message-batch-results: one line per request, succeeded or not. */
export const ANTHROPIC_BATCH_RESULTS = resultLine('a', { type: 'succeeded', message: message({ input_tokens: 1000, cache_read_input_tokens: 2000, cache_creation_input_tokens: 0, output_tokens: 500 }) })
  + resultLine('b', { type: 'succeeded', message: message({ input_tokens: 3000, output_tokens: 1500 }) })
  + resultLine('c', { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: field required' } } });
