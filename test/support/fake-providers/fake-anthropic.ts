// A stand-in for the Anthropic API speaking the documented wire format:
// https://docs.anthropic.com/en/api/messages, /en/docs/build-with-claude/streaming,
// /en/api/messages-count-tokens, /en/api/models-list, /en/api/errors.
// Shapes follow test/fixtures/anthropic/.
import { randomUUID } from 'node:crypto';
import type { FakeBehaviour, FakeDialect, FakeJsonReply, FakeReply, RecordedRequest } from './fake-provider-types.js';
import { contentText, countTokens, createEchoText, field, list, splitWords, text, type JsonRecord } from './fake-request-text.js';

const eventFrame = (payload: JsonRecord): string => `event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`;

function readPrompt(body: unknown): string {
  return contentText(field(body, 'system')) + list(body, 'messages').map((message) => contentText(field(message, 'content'))).join('');
}

function isToolResult(message: unknown): boolean {
  const content = field(message, 'content');
  return Array.isArray(content) && content.some((block) => text(block, 'type') === 'tool_result');
}

interface MessageAnswer { text?: string; tool?: { name: string; jsonPieces: string[] }; inputTokens: number; outputTokens: number }

function answerMessage(body: unknown, behaviour: FakeBehaviour): MessageAnswer {
  const messages = list(body, 'messages');
  const inputTokens = countTokens(readPrompt(body));
  const userText = [...messages].reverse()
    .filter((message) => text(message, 'role') === 'user')
    .map((message) => contentText(field(message, 'content')))
    .find((value) => value !== '') ?? '';
  const planned = behaviour.toolCall;
  const plannedName = planned === undefined ? undefined : list(body, 'tools').map((tool) => text(tool, 'name'))
    .find((name) => name !== undefined && (planned.suffix === true ? name.endsWith(planned.name) : name === planned.name));
  if (planned !== undefined && plannedName !== undefined && !isToolResult(messages.at(-1))) {
    const json = JSON.stringify(planned.input);
    return { tool: { name: plannedName, jsonPieces: ['', json] }, inputTokens, outputTokens: countTokens(json) };
  }
  const toolName = text(list(body, 'tools')[0], 'name');
  if (toolName !== undefined && !isToolResult(messages.at(-1))) {
    // The first input_json_delta is often "" on the real API.
    const jsonPieces = ['', '{"text":', ` ${JSON.stringify(userText)}}`];
    return { tool: { name: toolName, jsonPieces }, inputTokens, outputTokens: countTokens(jsonPieces.join('')) };
  }
  const reply = createEchoText(userText);
  return { text: reply, inputTokens, outputTokens: countTokens(reply) };
}

function createUsage(input: number, output: number): JsonRecord {
  return { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: output, service_tier: 'standard' };
}

function createBlockEvents(answer: MessageAnswer, toolId: string): JsonRecord[] {
  const delta = (value: JsonRecord): JsonRecord => ({ type: 'content_block_delta', index: 0, delta: value });
  if (answer.tool) {
    return [
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: toolId, name: answer.tool.name, input: {} } },
      { type: 'ping' },
      ...answer.tool.jsonPieces.map((partial_json) => delta({ type: 'input_json_delta', partial_json })),
    ];
  }
  return [
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'ping' },
    ...splitWords(answer.text ?? '').map((value) => delta({ type: 'text_delta', text: value })),
  ];
}

function replyToMessages(body: unknown, behaviour: FakeBehaviour): FakeReply {
  const answer = answerMessage(body, behaviour);
  const id = `msg_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const toolId = `toolu_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const model = text(body, 'model') ?? '';
  const stopReason = answer.tool ? 'tool_use' : 'end_turn';
  if (field(body, 'stream') !== true) {
    const content = answer.tool
      ? [{ type: 'tool_use', id: toolId, name: answer.tool.name, input: JSON.parse(answer.tool.jsonPieces.join('')) as unknown }]
      : [{ type: 'text', text: answer.text }];
    const message = { id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage: createUsage(answer.inputTokens, answer.outputTokens) };
    return { type: 'json', status: 200, body: message };
  }
  const start = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: createUsage(answer.inputTokens, 1) };
  const payloads: JsonRecord[] = [
    { type: 'message_start', message: start },
    ...createBlockEvents(answer, toolId),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: answer.outputTokens } },
    { type: 'message_stop' },
  ];
  const malformedFrame = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","te\n\n';
  return { type: 'stream', frames: payloads.map(eventFrame), malformedFrame, contentType: 'text/event-stream; charset=utf-8' };
}

const MODELS = ['claude-sonnet-4-20250514', 'claude-opus-4-1-20250805', 'claude-3-5-haiku-20241022'].map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-05-22T00:00:00Z' }));

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 402: 'billing_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 504: 'timeout_error', 529: 'overloaded_error',
};

function createAnthropicError(status: number, message: string): FakeJsonReply {
  const requestId = `req_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'json', status, headers: { 'request-id': requestId }, body: { type: 'error', error: { type, message }, request_id: requestId } };
}

export const fakeAnthropic: FakeDialect = {
  route(request: RecordedRequest): FakeReply | undefined {
    const { method, path, json } = request;
    const isApiCall = method === 'POST' && (path === '/v1/messages' || path === '/v1/messages/count_tokens');
    // The real API refuses calls without anthropic-version (https://docs.anthropic.com/en/api/versioning).
    if (isApiCall && !request.headers['anthropic-version']) return createAnthropicError(400, 'anthropic-version: header is required');
    if (method === 'POST' && path === '/v1/messages') return replyToMessages(json, request.behaviour);
    if (method === 'POST' && path === '/v1/messages/count_tokens') return { type: 'json', status: 200, body: { input_tokens: countTokens(readPrompt(json)) } };
    if (method === 'GET' && path === '/v1/models') {
      return { type: 'json', status: 200, body: { data: MODELS, has_more: false, first_id: MODELS[0]?.id, last_id: MODELS.at(-1)?.id } };
    }
    return undefined;
  },
  createError: createAnthropicError,
  authorize(request: RecordedRequest, apiKey: string): FakeJsonReply | undefined {
    // x-api-key, or Authorization: Bearer as @anthropic-ai/sdk 1.12 and ANTHROPIC_AUTH_TOKEN send it.
    const given = request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '');
    return given === apiKey ? undefined : createAnthropicError(401, 'invalid x-api-key');
  },
};
