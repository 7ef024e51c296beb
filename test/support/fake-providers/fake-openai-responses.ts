// The OpenAI Responses API, as a stand-in: POST /v1/responses, JSON and the typed
// SSE events (https://platform.openai.com/docs/api-reference/responses-streaming),
// each with its sequence_number, ending with response.completed.
import { randomUUID } from 'node:crypto';
import type { FakeReply } from './fake-provider-types.js';
import { contentText, countTokens, createEchoText, field, isRecord, list, splitWords, text, type JsonRecord } from './fake-request-text.js';

function lastUserText(body: unknown): string {
  const input = field(body, 'input');
  if (typeof input === 'string') return input;
  const lastUser = [...list(body, 'input')].reverse().find((item) => text(item, 'role') === 'user');
  const content = field(lastUser, 'content');
  // Responses parts are input_text; a plain string content is allowed too.
  if (Array.isArray(content)) return content.map((part) => (text(part, 'type') === 'input_text' ? (text(part, 'text') ?? '') : '')).join('');
  return contentText(content);
}

function usage(input: number, output: number): JsonRecord {
  return { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
}

export function replyToResponses(body: unknown): FakeReply {
  const prompt = lastUserText(body);
  const tool = list(body, 'tools').find((candidate) => text(candidate, 'type') === 'function');
  const lastItem = list(body, 'input').at(-1);
  const callTool = isRecord(tool) && text(lastItem, 'type') !== 'function_call_output';
  const id = `resp_${randomUUID().replace(/-/g, '')}`;
  const itemId = `${callTool ? 'fc' : 'msg'}_${randomUUID().replace(/-/g, '')}`;
  const answer = callTool ? JSON.stringify({ text: prompt }) : createEchoText(prompt);
  const item: JsonRecord = callTool
    ? { type: 'function_call', id: itemId, call_id: `call_${randomUUID().slice(0, 8)}`, name: text(tool, 'name'), arguments: answer, status: 'completed' }
    : { type: 'message', id: itemId, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: answer, annotations: [] }] };
  const response = (status: string, output: JsonRecord[]): JsonRecord => ({
    id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: text(body, 'model') ?? '', output,
    parallel_tool_calls: true, tool_choice: 'auto', tools: list(body, 'tools'), usage: status === 'completed' ? usage(countTokens(prompt), countTokens(answer)) : null,
  });
  if (field(body, 'stream') !== true) return { type: 'json', status: 200, body: response('completed', [item]) };
  let sequence = 0;
  const event = (type: string, payload: JsonRecord): string => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`;
  const pieces = callTool ? ['{"text":', JSON.stringify(prompt), '}'] : splitWords(answer);
  const at = { item_id: itemId, output_index: 0 };
  const frames = [
    event('response.created', { response: response('in_progress', []) }),
    event('response.in_progress', { response: response('in_progress', []) }),
    event('response.output_item.added', { output_index: 0, item: callTool ? { ...item, arguments: '', status: 'in_progress' } : { ...item, content: [], status: 'in_progress' } }),
    ...(callTool
      ? [...pieces.map((delta) => event('response.function_call_arguments.delta', { ...at, delta })), event('response.function_call_arguments.done', { ...at, arguments: answer })]
      : [event('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
        ...pieces.map((delta) => event('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] })),
        event('response.output_text.done', { ...at, content_index: 0, text: answer, logprobs: [] }),
        event('response.content_part.done', { ...at, content_index: 0, part: { type: 'output_text', text: answer, annotations: [] } })]),
    event('response.output_item.done', { output_index: 0, item }),
    event('response.completed', { response: response('completed', [item]) }),
  ];
  return { type: 'stream', frames, malformedFrame: 'event: response.created\ndata: {"type":\n\n', contentType: 'text/event-stream' };
}
