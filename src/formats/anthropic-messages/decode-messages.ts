// Anthropic `messages` (and `system`) → canonical system parts and messages.
// A user turn mixing tool_result and other blocks becomes a tool message and a user message, in order.
// https://docs.anthropic.com/en/api/messages#body-messages
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, Message, TextPart, ToolResultPart, UserPart } from '../../canonical/request.js';
import { decodeAssistantBlock, decodeDocumentBlock, decodeImageBlock, decodeTextBlock, decodeToolResultBlock } from './decode-content.js';
import { invalid, requireArray, requireRecord } from '../shared/json-guards.js';

export function decodeAnthropicSystem(value: unknown, param: string, warnings: TranslationWarning[]): TextPart[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  return requireArray(value, param).map((item, index) => {
    const block = requireRecord(item, `${param}[${index}]`);
    if (block.type !== 'text') throw invalid(`${param}[${index}].type`, '"text"');
    return decodeTextBlock(block, `${param}[${index}]`, warnings);
  });
}

export function decodeAnthropicMessages(value: unknown, warnings: TranslationWarning[]): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  requireArray(value, 'messages').forEach((item, index) => {
    const param = `messages[${index}]`;
    const message = requireRecord(item, param);
    // Claude Code sends role "system" entries inside messages with some models.
    if (message.role === 'system') system.push(...decodeAnthropicSystem(message.content, `${param}.content`, warnings));
    else if (message.role === 'user') messages.push(...decodeUser(message.content, `${param}.content`, warnings, toolNames));
    else if (message.role === 'assistant') messages.push({ role: 'assistant', content: decodeAssistant(message.content, `${param}.content`, warnings, toolNames) });
    else throw invalid(`${param}.role`, 'one of user, assistant, system');
  });
  return { system, messages };
}

function decodeAssistant(content: unknown, param: string, warnings: TranslationWarning[], toolNames: Map<string, string>): AssistantPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const parts: AssistantPart[] = [];
  requireArray(content, param).forEach((item, index) => {
    const part = decodeAssistantBlock(requireRecord(item, `${param}[${index}]`), `${param}[${index}]`, warnings);
    if (part?.type === 'tool-call') toolNames.set(part.id, part.name);
    if (part) parts.push(part);
  });
  return parts;
}

function decodeUser(content: unknown, param: string, warnings: TranslationWarning[], toolNames: Map<string, string>): Message[] {
  if (typeof content === 'string') return [{ role: 'user', content: [{ type: 'text', text: content }] }];
  const messages: Message[] = [];
  const push = (part: UserPart | ToolResultPart): void => {
    const last = messages[messages.length - 1];
    if (part.type === 'tool-result') {
      if (last?.role === 'tool') last.content.push(part);
      else messages.push({ role: 'tool', content: [part] });
    } else if (last?.role === 'user') last.content.push(part);
    else messages.push({ role: 'user', content: [part] });
  };
  requireArray(content, param).forEach((item, index) => {
    const part = decodeUserBlock(requireRecord(item, `${param}[${index}]`), `${param}[${index}]`, warnings);
    if (part?.type === 'tool-result') {
      const toolName = toolNames.get(part.toolCallId);
      if (toolName !== undefined) part.toolName = toolName; // Gemini matches results by name
    }
    if (part) push(part);
  });
  return messages;
}

function decodeUserBlock(block: Record<string, unknown>, param: string, warnings: TranslationWarning[]): UserPart | ToolResultPart | undefined {
  switch (block.type) {
    case 'text': return decodeTextBlock(block, param, warnings);
    case 'image': return decodeImageBlock(block, param);
    case 'document': return decodeDocumentBlock(block, param, warnings);
    case 'tool_result': return decodeToolResultBlock(block, param, warnings);
    default:
      warnings.push({ code: `dropped:${String(block.type)}`, detail: param });
      return undefined;
  }
}
