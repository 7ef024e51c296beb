// `input` items → canonical messages. Assistant-side items (message, function_call,
// custom_tool_call, reasoning) that follow each other form one assistant turn;
// function_call_output and custom_tool_call_output items form one tool turn. https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, Message, TextPart, ToolResultPart } from '../../canonical/request.js';
import { decodeMessageContent, textOnly } from './decode-content.js';
import { customArguments } from './custom-tools.js';
import { invalid, optionalArray, optionalString, requireRecord, type JsonRecord } from '../shared/json-guards.js';
import { GatewayError } from '../../errors.js';

/** Codex's namespace tools are flattened to `<namespace>__<name>` (see decode-tools.ts). */
export const NAMESPACE_SEPARATOR = '__';

interface InputState {
  system: TextPart[];
  messages: Message[];
  callNames: Map<string, string>;
  warnings: TranslationWarning[];
}

export function decodeInput(value: unknown, warnings: TranslationWarning[]): { system: TextPart[]; messages: Message[] } {
  const state: InputState = { system: [], messages: [], callNames: new Map(), warnings };
  if (typeof value === 'string') return { system: [], messages: [{ role: 'user', content: [{ type: 'text', text: value }] }] };
  optionalArray(value, 'input').forEach((item, index) => decodeItem(requireRecord(item, `input[${index}]`), `input[${index}]`, state));
  return { system: state.system, messages: state.messages };
}

function decodeItem(item: JsonRecord, param: string, state: InputState): void {
  const type = optionalString(item.type, `${param}.type`) ?? 'message';
  if (type === 'message') return decodeMessage(item, param, state);
  if (type === 'function_call') return decodeFunctionCall(item, param, state);
  if (type === 'function_call_output' || type === 'custom_tool_call_output') return decodeFunctionOutput(item, param, state);
  if (type === 'custom_tool_call') return decodeCustomCall(item, param, state);
  if (type === 'reasoning') return appendAssistant(state, decodeReasoningItem(item, param, state.warnings));
  if (type === 'compaction_trigger' || type === 'compaction') throw compactionRefused(type, param);
  // item_reference, web_search_call…: nothing canonical can hold them.
  state.warnings.push({ code: `dropped:item.${type}` });
}

function decodeMessage(item: JsonRecord, param: string, state: InputState): void {
  const role = optionalString(item.role, `${param}.role`);
  const content = decodeMessageContent(item.content, `${param}.content`, state.warnings);
  if (role === 'system' || role === 'developer') state.system.push(...textOnly(content, `${param}.content`));
  else if (role === 'user') state.messages.push({ role: 'user', content });
  else if (role === 'assistant') for (const part of textOnly(content, `${param}.content`)) appendAssistant(state, part);
  else throw invalid(`${param}.role`, "'user', 'assistant', 'system' or 'developer'");
}

function decodeFunctionCall(item: JsonRecord, param: string, state: InputState): void {
  const callId = optionalString(item.call_id, `${param}.call_id`);
  const name = optionalString(item.name, `${param}.name`);
  if (callId === undefined) throw invalid(`${param}.call_id`, 'a string');
  if (name === undefined) throw invalid(`${param}.name`, 'a string');
  const namespace = optionalString(item.namespace, `${param}.namespace`);
  const fullName = namespace === undefined ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;
  const args = optionalString(item.arguments, `${param}.arguments`) ?? '';
  state.callNames.set(callId, fullName);
  appendAssistant(state, { type: 'tool-call', id: callId, name: fullName, arguments: args });
}

/** A custom tool's free-form input becomes the one string argument of its function (custom-tools.ts). */
function decodeCustomCall(item: JsonRecord, param: string, state: InputState): void {
  const callId = optionalString(item.call_id, `${param}.call_id`);
  const name = optionalString(item.name, `${param}.name`);
  if (callId === undefined) throw invalid(`${param}.call_id`, 'a string');
  if (name === undefined) throw invalid(`${param}.name`, 'a string');
  state.callNames.set(callId, name);
  appendAssistant(state, { type: 'tool-call', id: callId, name, arguments: customArguments(optionalString(item.input, `${param}.input`) ?? '') });
}

function decodeFunctionOutput(item: JsonRecord, param: string, state: InputState): void {
  const callId = optionalString(item.call_id, `${param}.call_id`);
  if (callId === undefined) throw invalid(`${param}.call_id`, 'a string');
  const content = decodeMessageContent(item.output ?? '', `${param}.output`, state.warnings).flatMap((part) => {
    if (part.type === 'text' || part.type === 'image') return [part];
    state.warnings.push({ code: 'dropped:tool_result.file' });
    return [];
  });
  const name = state.callNames.get(callId);
  const result: ToolResultPart = { type: 'tool-result', toolCallId: callId, ...(name === undefined ? {} : { toolName: name }), content };
  const last = state.messages.at(-1);
  if (last?.role === 'tool') last.content.push(result);
  else state.messages.push({ role: 'tool', content: [result] });
}

/** Reasoning items carry encrypted_content that must go back unchanged; summaries are joined as text. */
export function decodeReasoningItem(item: JsonRecord, param: string, warnings: TranslationWarning[]): AssistantPart {
  const summaries = optionalArray(item.summary, `${param}.summary`).map((entry, index) => {
    const text = optionalString(requireRecord(entry, `${param}.summary[${index}]`).text, `${param}.summary[${index}].text`);
    return text ?? '';
  });
  const reasoningText = optionalArray(item.content, `${param}.content`)
    .map((entry) => (typeof (entry as JsonRecord | null)?.text === 'string' ? (entry as JsonRecord).text as string : ''));
  const encrypted = optionalString(item.encrypted_content, `${param}.encrypted_content`);
  if (item.id !== undefined && encrypted === undefined) warnings.push({ code: 'dropped:reasoning.id', detail: 'a stored reasoning item cannot cross; send include: ["reasoning.encrypted_content"]' });
  const text = (summaries.length > 0 ? summaries : reasoningText).join('\n\n');
  return { type: 'reasoning', text, ...(encrypted === undefined ? {} : { encrypted }), origin: 'openai' };
}

function appendAssistant(state: InputState, part: AssistantPart): void {
  const last = state.messages.at(-1);
  if (last?.role === 'assistant') last.content.push(part);
  else state.messages.push({ role: 'assistant', content: [part] });
}

/**
 * Codex's compaction (a `compaction_trigger` asking for it, a `compaction` item replaying its
 * encrypted state) is OpenAI's own: dropping it would silently lose the conversation's history,
 * so the call is refused in the Responses error shape instead. Same format never decodes it.
 */
function compactionRefused(type: string, param: string): GatewayError {
  return new GatewayError('GW_ERR_TRANSLATION_COMPACTION', {
    message: `${param} is a ${type} item: compaction only works with an OpenAI Responses provider, and this model's provider speaks another format. Route the session to a Responses model.`,
    param,
  });
}
