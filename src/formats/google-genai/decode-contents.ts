// `contents` (and `systemInstruction`) → canonical messages. Gemini puts function results in
// a user turn, matched to calls by name (ids are optional), so results become `tool`
// messages with ids matched here. https://ai.google.dev/api/generate-content#request-body
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, Message, TextPart, ToolResultPart, UserPart } from '../../canonical/request.js';
import { decodeModelPart, decodeUserPart } from './decode-parts.js';
import { invalid, optionalArray, optionalString, requireRecord } from '../shared/json-guards.js';

interface PendingCall {
  id: string;
  name: string;
}

export function decodeSystemInstruction(value: unknown): TextPart[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  const content = requireRecord(value, 'systemInstruction');
  return optionalArray(content.parts, 'systemInstruction.parts').map((part, index) => {
    const param = `systemInstruction.parts[${index}]`;
    const text = optionalString(requireRecord(part, param).text, `${param}.text`);
    if (text === undefined) throw invalid(`${param}.text`, 'a string (system instructions carry text only)');
    return { type: 'text', text };
  });
}

export function decodeContents(value: unknown, warnings: TranslationWarning[]): Message[] {
  if (!Array.isArray(value)) throw invalid('contents', 'an array');
  const pending: PendingCall[] = [];
  const messages: Message[] = [];
  value.forEach((item, contentIndex) => {
    const param = `contents[${contentIndex}]`;
    const content = requireRecord(item, param);
    const role = optionalString(content.role, `${param}.role`) ?? 'user';
    if (!Array.isArray(content.parts)) throw invalid(`${param}.parts`, 'an array');
    if (role === 'model') messages.push(decodeModelContent(content.parts, param, contentIndex, pending, warnings));
    // 'function' is the older role for function results (https://ai.google.dev/api/caching#Content).
    else if (role === 'user' || role === 'function') messages.push(...decodeUserContent(content.parts, param, pending, warnings));
    else throw invalid(`${param}.role`, "'user' or 'model'");
  });
  return messages;
}

function decodeModelContent(parts: unknown[], param: string, contentIndex: number, pending: PendingCall[], warnings: TranslationWarning[]): Message {
  const content: AssistantPart[] = [];
  parts.forEach((part, partIndex) => {
    // Stable across turns: the same history always yields the same ids.
    const nextId = (): string => `call_${contentIndex}_${partIndex}`;
    for (const decoded of decodeModelPart(part, `${param}.parts[${partIndex}]`, nextId, warnings)) {
      if (decoded.type === 'tool-call') pending.push({ id: decoded.id, name: decoded.name });
      content.push(decoded);
    }
  });
  return { role: 'assistant', content };
}

function decodeUserContent(parts: unknown[], param: string, pending: PendingCall[], warnings: TranslationWarning[]): Message[] {
  const messages: Message[] = [];
  const matchCallId = (name: string): string => {
    const index = pending.findIndex((call) => call.name === name);
    if (index < 0) return `call_${name}`;
    return pending.splice(index, 1)[0]!.id;
  };
  parts.forEach((part, partIndex) => {
    const decoded = decodeUserPart(part, `${param}.parts[${partIndex}]`, matchCallId, warnings);
    if (decoded === undefined) return;
    if (decoded.kind === 'tool') {
      const byId = pending.findIndex((call) => call.id === decoded.part.toolCallId);
      if (byId >= 0) pending.splice(byId, 1);
      appendPart(messages, 'tool', decoded.part);
    } else {
      appendPart(messages, 'user', decoded.part);
    }
  });
  // An empty user turn stays a user turn with no parts rather than vanishing.
  if (messages.length === 0) messages.push({ role: 'user', content: [] });
  return messages;
}

function appendPart(messages: Message[], role: 'user' | 'tool', part: UserPart | ToolResultPart): void {
  const last = messages.at(-1);
  if (last?.role === role) (last.content as Array<UserPart | ToolResultPart>).push(part);
  else if (role === 'tool') messages.push({ role, content: [part as ToolResultPart] });
  else messages.push({ role, content: [part as UserPart] });
}

