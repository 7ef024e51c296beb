// Canonical → a Responses API response object for a Responses client.
// https://platform.openai.com/docs/api-reference/responses/object
import type { CodecContext } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse, FinishReason } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import type { JsonRecord } from '../shared/json-guards.js';
import { customInput, declaredCustomTools } from './custom-tools.js';
import { declaredNamespaces, splitName } from './encode-input.js';
import { encodeResponsesStatus } from './map-finish-reason.js';
import { encodeResponsesUsage } from './map-usage.js';

export function encodeResponsesResponse(response: CanonicalResponse, context: CodecContext): Record<string, unknown> {
  const output = encodeOutputItems(response.content, context);
  return createResponseObject({
    id: toResponseId(response.id, context), model: response.model, createdAt: context.now(), output,
    finishReason: response.finishReason, usage: response.usage,
  });
}

export function toResponseId(id: string, context: CodecContext): string {
  return id.startsWith('resp_') ? id : `resp_${id || context.ids()}`;
}

/** Consecutive text parts form one message item, as OpenAI sends them. */
function encodeOutputItems(parts: AssistantPart[], context: CodecContext): JsonRecord[] {
  const items: JsonRecord[] = [];
  let message: JsonRecord[] | undefined;
  for (const part of parts) {
    if (part.type === 'text') {
      if (message === undefined) {
        message = [];
        items.push({ id: `msg_${context.ids()}`, type: 'message', status: 'completed', role: 'assistant', content: message });
      }
      message.push({ type: 'output_text', text: part.text, annotations: [], logprobs: [] });
      continue;
    }
    message = undefined;
    if (part.type === 'tool-call' && declaredCustomTools(context.request).has(part.name)) {
      items.push(encodeCustomCall(`ctc_${context.ids()}`, part.id, part.name, part.arguments));
    } else if (part.type === 'tool-call') {
      items.push({ id: `fc_${context.ids()}`, type: 'function_call', status: 'completed', call_id: part.id, ...splitName(part.name, declaredNamespaces(context.request)), arguments: part.arguments });
    } else {
      items.push(encodeReasoningItem(`rs_${context.ids()}`, part.text, part.origin === 'openai' || part.origin === undefined ? part.encrypted : undefined));
    }
  }
  return items;
}

/** A call of a tool the client declared `custom` goes back as it expects: free-form input, not JSON arguments. */
export function encodeCustomCall(id: string, callId: string, name: string, argumentsJson: string): JsonRecord {
  return { id, type: 'custom_tool_call', status: 'completed', call_id: callId, name, input: customInput(argumentsJson) };
}

export function encodeReasoningItem(id: string, text: string, encrypted: string | undefined): JsonRecord {
  const summary = text === '' ? [] : [{ type: 'summary_text', text }];
  return { id, type: 'reasoning', summary, ...(encrypted === undefined ? {} : { encrypted_content: encrypted }) };
}

export interface ResponseObjectFields {
  id: string;
  model: string;
  createdAt: number;
  output: JsonRecord[];
  finishReason?: FinishReason;
  usage?: Usage;
  error?: JsonRecord;
}

/** The full response object, as `response.completed` and the JSON answer carry it. */
export function createResponseObject(fields: ResponseObjectFields): JsonRecord {
  const terminal = fields.finishReason === undefined ? { status: 'in_progress', incomplete_details: null } : encodeResponsesStatus(fields.finishReason);
  const status = fields.error === undefined ? terminal.status : 'failed';
  return {
    id: fields.id, object: 'response', created_at: fields.createdAt, status, background: false,
    error: fields.error ?? (status === 'failed' ? { code: 'server_error', message: 'The model failed to complete the response.' } : null),
    incomplete_details: terminal.incomplete_details, instructions: null, max_output_tokens: null, model: fields.model,
    output: fields.output, parallel_tool_calls: true, previous_response_id: null, reasoning: { effort: null, summary: null },
    store: false, temperature: null, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [], top_p: null,
    truncation: 'disabled', usage: fields.usage === undefined ? null : encodeResponsesUsage(fields.usage), user: null, metadata: {},
  };
}
