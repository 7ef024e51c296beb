// OpenAI Chat Completions, legacy Completions, Embeddings and Models, as
// documented at https://platform.openai.com/docs/api-reference/chat/create
// (streaming: .../chat-streaming, usage chunk: #stream_options).

import { createMockEmbedding, DEFAULT_MOCK_DIMENSIONS, encodeFloat32Base64 } from './mock-embedding.js';
import {
  createReplyText, estimateTokenCount, MOCK_MODEL_IDS, readArray, readContentText, readField, readRecord, readString,
  splitIntoPieces, type JsonRecord,
} from './mock-request.js';
import { respondWithJson, respondWithSse, toSseEvent, type MockContext, type MockResponse } from './mock-response.js';

interface ChatPlan {
  text?: string;
  toolName?: string;
  promptTokens: number;
  completionTokens: number;
}

function planChat(body: unknown): ChatPlan {
  const messages = readArray(body, 'messages');
  const promptTokens = estimateTokenCount(messages.map((message) => readContentText(readField(message, 'content'))).join(''));
  const last = messages.at(-1);
  const lastIsToolResult = ['tool', 'function'].includes(readString(last, 'role') ?? '');
  const firstTool = readArray(body, 'tools').find((tool) => readString(readRecord(tool, 'function'), 'name'));
  const toolName = readString(readRecord(firstTool, 'function'), 'name');
  if (toolName !== undefined && !lastIsToolResult) {
    return { toolName, promptTokens, completionTokens: estimateTokenCount(`${toolName}{}`) };
  }
  const lastUser = [...messages].reverse().find((message) => readString(message, 'role') === 'user');
  const text = createReplyText(readContentText(readField(lastUser, 'content')));
  return { text, promptTokens, completionTokens: estimateTokenCount(text) };
}

function createUsage(promptTokens: number, completionTokens: number): JsonRecord {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

export function respondToOpenAiChat(context: MockContext): MockResponse {
  const plan = planChat(context.body);
  const id = `chatcmpl-${context.createId()}`;
  const created = Math.floor(context.now() / 1000);
  const callId = `call_${context.createId()}`;
  if (context.stream) return streamOpenAiChat(context, plan, { id, created, callId });
  const toolCalls = plan.toolName === undefined ? undefined
    : [{ id: callId, type: 'function', function: { name: plan.toolName, arguments: '{}' } }];
  const message: JsonRecord = { role: 'assistant', content: plan.text ?? null, refusal: null, annotations: [] };
  if (toolCalls) message.tool_calls = toolCalls;
  return respondWithJson(200, {
    id, object: 'chat.completion', created, model: context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: toolCalls ? 'tool_calls' : 'stop' }],
    usage: createUsage(plan.promptTokens, plan.completionTokens),
    service_tier: 'default',
  });
}

function createChatDeltas(plan: ChatPlan, callId: string): JsonRecord[] {
  if (plan.toolName !== undefined) {
    return [
      { role: 'assistant', content: null, tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: plan.toolName, arguments: '' } }], refusal: null },
      { tool_calls: [{ index: 0, function: { arguments: '{}' } }] },
    ];
  }
  return [{ role: 'assistant', content: '', refusal: null }, ...splitIntoPieces(plan.text ?? '').map((piece) => ({ content: piece }))];
}

function streamOpenAiChat(context: MockContext, plan: ChatPlan, ids: { id: string; created: number; callId: string }): MockResponse {
  const includeUsage = readRecord(context.body, 'stream_options')?.include_usage === true;
  const base: JsonRecord = { id: ids.id, object: 'chat.completion.chunk', created: ids.created, model: context.model, service_tier: 'default' };
  // With include_usage every chunk carries "usage": null and one last chunk has empty choices.
  const chunk = (choice: JsonRecord | undefined, usage: JsonRecord | null): JsonRecord => ({
    ...base, choices: choice ? [choice] : [], ...(includeUsage ? { usage } : {}),
  });
  const chunks = createChatDeltas(plan, ids.callId).map((delta) => chunk({ index: 0, delta, logprobs: null, finish_reason: null }, null));
  const finishReason = plan.toolName === undefined ? 'stop' : 'tool_calls';
  chunks.push(chunk({ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }, null));
  if (includeUsage) chunks.push(chunk(undefined, createUsage(plan.promptTokens, plan.completionTokens)));
  return respondWithSse([...chunks.map((payload) => toSseEvent(payload)), { data: '[DONE]' }], context.timing);
}

function readPrompts(body: unknown): string[] {
  const prompt = readField(body, 'prompt');
  if (typeof prompt === 'string') return [prompt];
  if (Array.isArray(prompt) && prompt.every((item) => typeof item === 'string')) return prompt.length > 0 ? prompt : [''];
  return [''];
}

/** https://platform.openai.com/docs/api-reference/completions/create */
export function respondToOpenAiCompletions(context: MockContext): MockResponse {
  const prompts = readPrompts(context.body);
  const texts = prompts.map(createReplyText);
  const id = `cmpl-${context.createId()}`;
  const base = { id, object: 'text_completion', created: Math.floor(context.now() / 1000), model: context.model };
  const promptTokens = estimateTokenCount(prompts.join(''));
  const usage = createUsage(promptTokens, estimateTokenCount(texts.join('')));
  if (!context.stream) {
    const choices = texts.map((text, index) => ({ text, index, logprobs: null, finish_reason: 'stop' }));
    return respondWithJson(200, { ...base, choices, usage });
  }
  const choice = (text: string, index: number, finish: string | null): JsonRecord => ({ ...base, choices: [{ text, index, logprobs: null, finish_reason: finish }] });
  const chunks = texts.flatMap((text, index) => [...splitIntoPieces(text).map((piece) => choice(piece, index, null)), choice('', index, 'stop')]);
  if (readRecord(context.body, 'stream_options')?.include_usage === true) chunks.push({ ...base, choices: [], usage });
  return respondWithSse([...chunks.map((payload) => toSseEvent(payload)), { data: '[DONE]' }], context.timing);
}

function readEmbeddingInputs(body: unknown): string[] {
  const input = readField(body, 'input');
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input)) return [''];
  // Token arrays (number[] or number[][]) are embedded by their digits, which keeps them deterministic.
  if (input.every((item) => typeof item === 'number')) return [input.join(' ')];
  return input.map((item) => (typeof item === 'string' ? item : Array.isArray(item) ? item.join(' ') : ''));
}

/** https://platform.openai.com/docs/api-reference/embeddings/create */
export function respondToOpenAiEmbeddings(context: MockContext): MockResponse {
  const inputs = readEmbeddingInputs(context.body);
  const dimensionsField = readField(context.body, 'dimensions');
  const dimensions = typeof dimensionsField === 'number' ? dimensionsField : DEFAULT_MOCK_DIMENSIONS;
  const base64 = readString(context.body, 'encoding_format') === 'base64';
  const data = inputs.map((input, index) => {
    const vector = createMockEmbedding(input, dimensions);
    return { object: 'embedding', index, embedding: base64 ? encodeFloat32Base64(vector) : vector };
  });
  const promptTokens = estimateTokenCount(inputs.join(''));
  return respondWithJson(200, { object: 'list', data, model: context.model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } });
}

/** https://platform.openai.com/docs/api-reference/models/list */
export function respondToOpenAiModels(context: MockContext): MockResponse {
  const created = Math.floor(context.now() / 1000);
  return respondWithJson(200, { object: 'list', data: MOCK_MODEL_IDS.map((id) => ({ id, object: 'model', created, owned_by: 'gw' })) });
}

function describeOpenAiError(status: number): { type: string; code: string | null } {
  // Types and codes as OpenAI sends them (https://platform.openai.com/docs/guides/error-codes).
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 404) return { type: 'invalid_request_error', code: 'model_not_found' };
  if (status === 429) return { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

/** `{"error":{message,type,param,code}}`; 429 carries retry-after like OpenAI's rate limiter. */
export function respondWithOpenAiError(status: number, message: string): MockResponse {
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {};
  return respondWithJson(status, { error: { message, ...describeOpenAiError(status), param: null } }, headers);
}
