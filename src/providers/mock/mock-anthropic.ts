// Anthropic Messages and count_tokens, as documented at
// https://docs.anthropic.com/en/api/messages, .../messages-streaming and
// .../messages-count-tokens; errors per https://docs.anthropic.com/en/api/errors.

import {
  createReplyText, estimateTokenCount, readArray, readContentText, readField, readString, splitIntoPieces, type JsonRecord,
} from './mock-request.js';
import { respondWithJson, respondWithSse, toSseEvent, type MockContext, type MockResponse } from './mock-response.js';

interface MessagesPlan {
  text?: string;
  toolName?: string;
  inputTokens: number;
  outputTokens: number;
}

function isToolResultMessage(message: unknown): boolean {
  const content = readField(message, 'content');
  return Array.isArray(content) && content.some((block) => readString(block, 'type') === 'tool_result');
}

function readPromptText(body: unknown): string {
  const messages = readArray(body, 'messages');
  return readContentText(readField(body, 'system')) + messages.map((message) => readContentText(readField(message, 'content'))).join('');
}

function planMessages(body: unknown): MessagesPlan {
  const messages = readArray(body, 'messages');
  const inputTokens = estimateTokenCount(readPromptText(body));
  const toolName = readArray(body, 'tools').map((tool) => readString(tool, 'name')).find((name) => name !== undefined);
  if (toolName !== undefined && !isToolResultMessage(messages.at(-1))) {
    return { toolName, inputTokens, outputTokens: estimateTokenCount(`${toolName}{}`) };
  }
  const lastUserText = [...messages]
    .reverse()
    .filter((message) => readString(message, 'role') === 'user')
    .map((message) => readContentText(readField(message, 'content')))
    .find((text) => text !== '') ?? '';
  const text = createReplyText(lastUserText);
  return { text, inputTokens, outputTokens: estimateTokenCount(text) };
}

function createUsage(inputTokens: number, outputTokens: number): JsonRecord {
  return { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens, service_tier: 'standard' };
}

export function respondToAnthropicMessages(context: MockContext): MockResponse {
  const plan = planMessages(context.body);
  const ids = { message: `msg_${context.createId()}`, tool: `toolu_${context.createId()}` };
  if (context.stream) return streamAnthropicMessages(context, plan, ids);
  const content = plan.toolName === undefined
    ? [{ type: 'text', text: plan.text ?? '' }]
    : [{ type: 'tool_use', id: ids.tool, name: plan.toolName, input: {} }];
  return respondWithJson(200, {
    id: ids.message, type: 'message', role: 'assistant', model: context.model, content,
    stop_reason: plan.toolName === undefined ? 'end_turn' : 'tool_use', stop_sequence: null,
    usage: createUsage(plan.inputTokens, plan.outputTokens),
  });
}

function createBlockEvents(plan: MessagesPlan, toolId: string): JsonRecord[] {
  if (plan.toolName !== undefined) {
    // The input arrives as partial JSON strings to be joined (input_json_delta).
    return [
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: toolId, name: plan.toolName, input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '}' } },
    ];
  }
  return [
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'ping' },
    ...splitIntoPieces(plan.text ?? '').map((text) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
  ];
}

function streamAnthropicMessages(context: MockContext, plan: MessagesPlan, ids: { message: string; tool: string }): MockResponse {
  const message = {
    id: ids.message, type: 'message', role: 'assistant', model: context.model, content: [],
    stop_reason: null, stop_sequence: null, usage: createUsage(plan.inputTokens, 1),
  };
  const stopReason = plan.toolName === undefined ? 'end_turn' : 'tool_use';
  const payloads: JsonRecord[] = [
    { type: 'message_start', message },
    ...createBlockEvents(plan, ids.tool),
    { type: 'content_block_stop', index: 0 },
    // message_delta usage is cumulative (https://docs.anthropic.com/en/api/messages-streaming).
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: plan.outputTokens } },
    { type: 'message_stop' },
  ];
  return respondWithSse(payloads.map((payload) => toSseEvent(payload, String(payload.type))), context.timing);
}

/** https://docs.anthropic.com/en/api/messages-count-tokens: `{"input_tokens": N}`. */
export function respondToAnthropicCountTokens(context: MockContext): MockResponse {
  return respondWithJson(200, { input_tokens: estimateTokenCount(readPromptText(context.body)) });
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 402: 'billing_error', 403: 'permission_error',
  404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 504: 'timeout_error',
  529: 'overloaded_error',
};

export function respondWithAnthropicError(status: number, message: string, requestId: string): MockResponse {
  const type = ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  const headers: Record<string, string> = { 'request-id': requestId };
  if (status === 429) headers['retry-after'] = '1';
  return respondWithJson(status, { type: 'error', error: { type, message }, request_id: requestId }, headers);
}
