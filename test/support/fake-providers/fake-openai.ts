// A stand-in for the OpenAI API (and Azure OpenAI's deployment routes) speaking
// the documented wire format: https://platform.openai.com/docs/api-reference
// (chat/create, chat-streaming, completions, embeddings, models) and
// https://learn.microsoft.com/azure/ai-services/openai/reference. Shapes follow test/fixtures/openai/.
import { randomUUID } from 'node:crypto';
import type { FakeDialect, FakeJsonReply, FakeReply, RecordedRequest } from './fake-provider-types.js';
import { replyToResponses } from './fake-openai-responses.js';
import { contentText, countTokens, createEchoText, embedText, field, list, splitWords, text, type JsonRecord } from './fake-request-text.js';

const dataFrame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

function createUsage(prompt: number, completion: number): JsonRecord {
  return {
    prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

interface ChatAnswer { text?: string; tool?: { name: string; argumentPieces: string[] }; promptTokens: number; completionTokens: number }

function answerChat(body: unknown): ChatAnswer {
  const messages = list(body, 'messages');
  const promptTokens = countTokens(messages.map((message) => contentText(field(message, 'content'))).join(''));
  const lastUser = [...messages].reverse().find((message) => text(message, 'role') === 'user');
  const userText = contentText(field(lastUser, 'content'));
  const toolName = text(field(list(body, 'tools')[0], 'function'), 'name');
  if (toolName !== undefined && text(messages.at(-1), 'role') !== 'tool') {
    const argumentPieces = ['{"text":', JSON.stringify(userText), '}'];
    return { tool: { name: toolName, argumentPieces }, promptTokens, completionTokens: countTokens(argumentPieces.join('')) };
  }
  const reply = createEchoText(userText);
  return { text: reply, promptTokens, completionTokens: countTokens(reply) };
}

function replyToChat(body: unknown, model: string): FakeReply {
  const answer = answerChat(body);
  const base = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model, system_fingerprint: 'fp_fake' };
  const callId = `call_${randomUUID().slice(0, 8)}`;
  const finish = answer.tool ? 'tool_calls' : 'stop';
  if (field(body, 'stream') !== true) {
    const message: JsonRecord = { role: 'assistant', content: answer.text ?? null, refusal: null, annotations: [] };
    if (answer.tool) message.tool_calls = [{ id: callId, type: 'function', function: { name: answer.tool.name, arguments: answer.tool.argumentPieces.join('') } }];
    const choices = [{ index: 0, message, logprobs: null, finish_reason: finish }];
    return { type: 'json', status: 200, body: { ...base, object: 'chat.completion', choices, usage: createUsage(answer.promptTokens, answer.completionTokens), service_tier: 'default' } };
  }
  const includeUsage = field(field(body, 'stream_options'), 'include_usage') === true;
  const chunk = (delta: JsonRecord, finishReason: string | null): JsonRecord => ({
    ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...(includeUsage ? { usage: null } : {}),
  });
  const deltas: JsonRecord[] = answer.tool
    ? [{ role: 'assistant', content: null, tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: answer.tool.name, arguments: '' } }], refusal: null },
      ...answer.tool.argumentPieces.map((piece) => ({ tool_calls: [{ index: 0, function: { arguments: piece } }] }))]
    : [{ role: 'assistant', content: '' }, ...splitWords(answer.text ?? '').map((content) => ({ content }))];
  const frames = [...deltas.map((delta) => chunk(delta, null)), chunk({}, finish)].map(dataFrame);
  if (includeUsage) frames.push(dataFrame({ ...base, object: 'chat.completion.chunk', choices: [], usage: createUsage(answer.promptTokens, answer.completionTokens) }));
  frames.push('data: [DONE]\n\n');
  return { type: 'stream', frames, malformedFrame: 'data: {"id":"chatcmpl-broken","choices":[{"delta":\n\n', contentType: 'text/event-stream' };
}

function replyToCompletion(body: unknown): FakeReply {
  const prompt = field(body, 'prompt');
  const reply = createEchoText(typeof prompt === 'string' ? prompt : Array.isArray(prompt) ? String(prompt[0] ?? '') : '');
  const base = { id: `cmpl-${randomUUID()}`, object: 'text_completion', created: Math.floor(Date.now() / 1000), model: text(body, 'model') ?? '', system_fingerprint: 'fp_fake' };
  const usage = { prompt_tokens: countTokens(String(prompt ?? '')), completion_tokens: countTokens(reply), total_tokens: countTokens(String(prompt ?? '')) + countTokens(reply) };
  if (field(body, 'stream') !== true) {
    return { type: 'json', status: 200, body: { ...base, choices: [{ text: reply, index: 0, logprobs: null, finish_reason: 'stop' }], usage } };
  }
  const choice = (piece: string, finish: string | null): string => dataFrame({ ...base, choices: [{ text: piece, index: 0, logprobs: null, finish_reason: finish }] });
  const frames = [...splitWords(reply).map((piece) => choice(piece, null)), choice('', 'stop')];
  if (field(field(body, 'stream_options'), 'include_usage') === true) frames.push(dataFrame({ ...base, choices: [], usage }));
  frames.push('data: [DONE]\n\n');
  return { type: 'stream', frames, malformedFrame: 'data: {"id":"cmpl-broken",\n\n', contentType: 'text/event-stream' };
}

function replyToEmbeddings(body: unknown): FakeJsonReply {
  const input = field(body, 'input');
  const inputs = typeof input === 'string' ? [input] : Array.isArray(input) ? input.map(String) : [];
  const dimensions = typeof field(body, 'dimensions') === 'number' ? Number(field(body, 'dimensions')) : 8;
  const base64 = text(body, 'encoding_format') === 'base64';
  const data = inputs.map((item, index) => {
    const vector = embedText(item, dimensions);
    // base64 is little-endian float32, which the openai SDK asks for by default and decodes itself.
    const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    return { object: 'embedding', index, embedding };
  });
  const tokens = countTokens(inputs.join(''));
  return { type: 'json', status: 200, body: { object: 'list', data, model: text(body, 'model') ?? '', usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}

const MODELS = { object: 'list', data: ['gpt-4o-mini', 'gpt-4.1', 'text-embedding-3-small'].map((id) => ({ id, object: 'model', created: 1686935002, owned_by: 'system' })) };

function createOpenAiError(status: number, message: string): FakeJsonReply {
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const code = status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : status === 404 ? 'model_not_found' : null;
  return { type: 'json', status, headers: { 'x-request-id': `req_${randomUUID().slice(0, 12)}` }, body: { error: { message, type, param: null, code } } };
}

const AZURE_CHAT = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

export const fakeOpenAi: FakeDialect = {
  route(request: RecordedRequest): FakeReply | undefined {
    const { method, path, json } = request;
    const azure = AZURE_CHAT.exec(path);
    if (azure && method === 'POST') {
      // Azure answers 404 "Resource not found" without api-version.
      if (!request.query['api-version']) return { type: 'json', status: 404, body: { error: { code: '404', message: 'Resource not found' } } };
      return replyToChat(json, decodeURIComponent(azure[1] ?? ''));
    }
    if (method === 'POST' && path === '/v1/chat/completions') return replyToChat(json, text(json, 'model') ?? '');
    if (method === 'POST' && path === '/v1/completions') return replyToCompletion(json);
    if (method === 'POST' && path === '/v1/responses') return replyToResponses(json);
    if (method === 'POST' && path === '/v1/embeddings') return replyToEmbeddings(json);
    if (method === 'GET' && path === '/v1/models') return { type: 'json', status: 200, body: MODELS };
    return undefined;
  },
  createError: createOpenAiError,
  authorize(request: RecordedRequest, apiKey: string): FakeJsonReply | undefined {
    const azure = request.path.startsWith('/openai/');
    const given = azure ? request.headers['api-key'] : request.headers.authorization?.replace(/^Bearer /, '');
    if (given === apiKey) return undefined;
    return createOpenAiError(401, `Incorrect API key provided: ${String(given ?? '').slice(0, 6)}…`);
  },
};
