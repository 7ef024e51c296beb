// Chat `messages` → canonical system parts and messages.
// https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, DocumentPart, ImagePart, Message, TextPart, ToolResultPart, UserPart } from '../../canonical/request.js';
import { invalid, missing, optionalString, parseDataUrl, requireArray, requireRecord, type JsonRecord } from '../shared/json-guards.js';

interface MessageState {
  system: TextPart[];
  messages: Message[];
  warnings: TranslationWarning[];
  /** Tool names by call id: tool messages carry only the id, Gemini needs the name. */
  toolNames: Map<string, string>;
}

export function decodeOpenAiMessages(value: unknown, warnings: TranslationWarning[]): { system: TextPart[]; messages: Message[] } {
  const list = requireArray(value, 'messages');
  const state: MessageState = { system: [], messages: [], warnings, toolNames: new Map() };
  list.forEach((item, index) => decodeMessage(requireRecord(item, `messages[${index}]`), `messages[${index}]`, state));
  return { system: state.system, messages: state.messages };
}

function decodeMessage(message: JsonRecord, param: string, state: MessageState): void {
  switch (message.role) {
    case 'system':
    case 'developer':
      state.system.push(...decodeTextContent(message.content, `${param}.content`));
      return;
    case 'user':
      state.messages.push({ role: 'user', content: decodeUserContent(message.content, `${param}.content`, state.warnings) });
      return;
    case 'assistant':
      state.messages.push({ role: 'assistant', content: decodeAssistant(message, param, state) });
      return;
    case 'tool':
      appendToolResult(decodeToolMessage(message, param, state), state);
      return;
    case 'function':
      state.warnings.push({ code: 'dropped:function_message', detail: `${param}: the deprecated function role has no canonical form` });
      return;
    default:
      throw invalid(`${param}.role`, 'one of system, developer, user, assistant, tool');
  }
}

/** Text-only content (system, developer, tool): a string or text parts. */
function decodeTextContent(content: unknown, param: string): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return requireArray(content, param).map((item, index) => {
    const part = requireRecord(item, `${param}[${index}]`);
    if (part.type !== 'text') throw invalid(`${param}[${index}].type`, '"text" here');
    return { type: 'text', text: optionalString(part.text, `${param}[${index}].text`) ?? '' };
  });
}

function decodeUserContent(content: unknown, param: string, warnings: TranslationWarning[]): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: UserPart[] = [];
  requireArray(content, param).forEach((item, index) => {
    const part = decodeUserPart(requireRecord(item, `${param}[${index}]`), `${param}[${index}]`, warnings);
    if (part) parts.push(part);
  });
  return parts;
}

function decodeUserPart(part: JsonRecord, param: string, warnings: TranslationWarning[]): UserPart | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: optionalString(part.text, `${param}.text`) ?? '' };
    case 'image_url':
      return decodeImage(requireRecord(part.image_url, `${param}.image_url`), `${param}.image_url`, warnings);
    case 'file':
      return decodeFile(requireRecord(part.file, `${param}.file`), `${param}.file`);
    case 'input_audio':
      warnings.push({ code: 'dropped:input_audio', detail: `${param}: audio input has no canonical form` });
      return undefined;
    default:
      throw invalid(`${param}.type`, 'one of text, image_url, file, input_audio');
  }
}

function decodeImage(image: JsonRecord, param: string, warnings: TranslationWarning[]): ImagePart {
  const url = optionalString(image.url, `${param}.url`);
  if (url === undefined) throw missing(`${param}.url`);
  if (image.detail !== undefined && image.detail !== 'auto') {
    warnings.push({ code: 'dropped:image_url.detail', detail: `${param}.detail` });
  }
  const inline = parseDataUrl(url);
  return { type: 'image', source: inline ? { type: 'base64', ...inline } : { type: 'url', url } };
}

function decodeFile(file: JsonRecord, param: string): DocumentPart {
  const fileId = optionalString(file.file_id, `${param}.file_id`);
  const fileData = optionalString(file.file_data, `${param}.file_data`);
  const title = optionalString(file.filename, `${param}.filename`);
  const named = title === undefined ? {} : { title };
  if (fileId !== undefined) return { type: 'document', source: { type: 'file', fileId }, ...named };
  if (fileData === undefined) throw invalid(param, 'file_id or file_data');
  // file_data is a data: URL in practice; a bare base64 string is taken as a PDF, the only type chat accepts.
  const inline = parseDataUrl(fileData) ?? { mediaType: 'application/pdf', data: fileData };
  return { type: 'document', source: { type: 'base64', ...inline }, ...named };
}

function decodeAssistant(message: JsonRecord, param: string, state: MessageState): AssistantPart[] {
  const parts: AssistantPart[] = [];
  // DeepSeek and OpenRouter send thinking back as reasoning_content / reasoning.
  const reasoning = optionalString(message.reasoning_content, `${param}.reasoning_content`)
    ?? (typeof message.reasoning === 'string' ? message.reasoning : undefined);
  if (reasoning !== undefined) parts.push({ type: 'reasoning', text: reasoning });
  parts.push(...decodeAssistantContent(message.content, `${param}.content`));
  const refusal = optionalString(message.refusal, `${param}.refusal`);
  if (refusal !== undefined) {
    parts.push({ type: 'text', text: refusal });
    state.warnings.push({ code: 'mapped:refusal', detail: `${param}.refusal became text` });
  }
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    requireArray(message.tool_calls, `${param}.tool_calls`).forEach((item, index) => {
      parts.push(decodeToolCall(requireRecord(item, `${param}.tool_calls[${index}]`), `${param}.tool_calls[${index}]`, state));
    });
  }
  if (message.function_call !== undefined && message.function_call !== null) {
    state.warnings.push({ code: 'dropped:function_call', detail: `${param}.function_call (deprecated) has no call id` });
  }
  if (message.audio !== undefined && message.audio !== null) state.warnings.push({ code: 'dropped:audio', detail: `${param}.audio` });
  return parts;
}

function decodeAssistantContent(content: unknown, param: string): TextPart[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return requireArray(content, param).map((item, index) => {
    const part = requireRecord(item, `${param}[${index}]`);
    const key = part.type === 'refusal' ? 'refusal' : 'text';
    if (part.type !== 'text' && part.type !== 'refusal') throw invalid(`${param}[${index}].type`, '"text" or "refusal"');
    return { type: 'text', text: optionalString(part[key], `${param}[${index}].${key}`) ?? '' };
  });
}

function decodeToolCall(call: JsonRecord, param: string, state: MessageState): AssistantPart {
  const id = optionalString(call.id, `${param}.id`);
  if (id === undefined) throw missing(`${param}.id`);
  if (call.type !== undefined && call.type !== 'function') throw invalid(`${param}.type`, '"function"');
  const fn = requireRecord(call.function, `${param}.function`);
  const name = optionalString(fn.name, `${param}.function.name`);
  if (name === undefined) throw missing(`${param}.function.name`);
  state.toolNames.set(id, name);
  return { type: 'tool-call', id, name, arguments: optionalString(fn.arguments, `${param}.function.arguments`) ?? '' };
}

function decodeToolMessage(message: JsonRecord, param: string, state: MessageState): ToolResultPart {
  const toolCallId = optionalString(message.tool_call_id, `${param}.tool_call_id`);
  if (toolCallId === undefined) throw missing(`${param}.tool_call_id`);
  const toolName = state.toolNames.get(toolCallId);
  const content = decodeTextContent(message.content ?? '', `${param}.content`);
  return { type: 'tool-result', toolCallId, ...(toolName === undefined ? {} : { toolName }), content };
}

/** Consecutive tool messages answer one assistant turn: one canonical tool message. */
function appendToolResult(result: ToolResultPart, state: MessageState): void {
  const last = state.messages[state.messages.length - 1];
  if (last?.role === 'tool') last.content.push(result);
  else state.messages.push({ role: 'tool', content: [result] });
}

