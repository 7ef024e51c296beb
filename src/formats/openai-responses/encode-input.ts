// Canonical messages → Responses `input` items.
// https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
import type { CanonicalRequest } from '../../canonical/request.js';
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, MediaSource, Message, ToolResultPart, UserPart } from '../../canonical/request.js';
import { NAMESPACE_SEPARATOR } from './decode-input.js';
import type { JsonRecord } from '../shared/json-guards.js';

export function encodeInput(messages: Message[], namespaces: Set<string>, warnings: TranslationWarning[]): JsonRecord[] {
  return messages.flatMap((message): JsonRecord[] => {
    if (message.role === 'user') return [{ type: 'message', role: 'user', content: message.content.map((part) => encodeUserPart(part, warnings)) }];
    if (message.role === 'tool') return message.content.map((part) => encodeToolResult(part, warnings));
    return encodeAssistant(message.content, namespaces, warnings);
  });
}

function toUrl(source: MediaSource): string | undefined {
  if (source.type === 'url') return source.url;
  if (source.type === 'base64') return `data:${source.mediaType};base64,${source.data}`;
  return undefined;
}

function encodeUserPart(part: UserPart, warnings: TranslationWarning[]): JsonRecord {
  if (part.cacheControl !== undefined) warnings.push({ code: 'dropped:cache_control' });
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  if (part.type === 'image') {
    const url = toUrl(part.source);
    return url === undefined ? { type: 'input_image', file_id: fileIdOf(part.source) } : { type: 'input_image', image_url: url };
  }
  const filename = part.title === undefined ? {} : { filename: part.title };
  if (part.source.type === 'base64') return { type: 'input_file', ...filename, file_data: toUrl(part.source) };
  if (part.source.type === 'url') return { type: 'input_file', ...filename, file_url: part.source.url };
  return { type: 'input_file', ...filename, file_id: part.source.fileId };
}

function fileIdOf(source: MediaSource): string {
  return source.type === 'file' ? source.fileId : '';
}

function encodeToolResult(part: ToolResultPart, warnings: TranslationWarning[]): JsonRecord {
  if (part.cacheControl !== undefined) warnings.push({ code: 'dropped:cache_control' });
  // Responses has no error flag on a function output; the text says it.
  if (part.isError === true) warnings.push({ code: 'dropped:tool_result.is_error' });
  const only = part.content[0];
  const output = part.content.length === 1 && only?.type === 'text' ? only.text : part.content.map((item) => encodeUserPart(item, warnings));
  return { type: 'function_call_output', call_id: part.toolCallId, output };
}

/** Consecutive text parts share one assistant message item; calls and reasoning are items of their own. */
function encodeAssistant(parts: AssistantPart[], namespaces: Set<string>, warnings: TranslationWarning[]): JsonRecord[] {
  const items: JsonRecord[] = [];
  let message: JsonRecord[] | undefined;
  for (const part of parts) {
    if (part.type === 'text') {
      if (message === undefined) {
        message = [];
        items.push({ type: 'message', role: 'assistant', content: message });
      }
      message.push({ type: 'output_text', text: part.text, annotations: [] });
      continue;
    }
    message = undefined;
    if (part.type === 'tool-call') items.push({ type: 'function_call', call_id: part.id, ...splitName(part.name, namespaces), arguments: part.arguments });
    else {
      const reasoning = encodeReasoning(part, warnings);
      if (reasoning !== undefined) items.push(reasoning);
    }
  }
  return items;
}

/** `<namespace>__<name>` back to {namespace, name} when the namespace was declared. */
export function splitName(fullName: string, namespaces: Set<string>): { name: string; namespace?: string } {
  for (const namespace of namespaces) {
    const prefix = `${namespace}${NAMESPACE_SEPARATOR}`;
    if (fullName.startsWith(prefix)) return { namespace, name: fullName.slice(prefix.length) };
  }
  return { name: fullName };
}

/** Only OpenAI's own encrypted reasoning can go back; another provider's thinking is dropped. */
function encodeReasoning(part: Extract<AssistantPart, { type: 'reasoning' }>, warnings: TranslationWarning[]): JsonRecord | undefined {
  if (part.encrypted === undefined || (part.origin !== undefined && part.origin !== 'openai')) {
    warnings.push({ code: 'dropped:reasoning', detail: part.origin === undefined ? 'no encrypted content' : `from ${part.origin}` });
    return undefined;
  }
  const summary = part.text === '' ? [] : [{ type: 'summary_text', text: part.text }];
  return { type: 'reasoning', summary, encrypted_content: part.encrypted };
}

/** The namespaces the client declared (decode-tools.ts keeps them in extensions.openai.namespaces). */
export function declaredNamespaces(request: CanonicalRequest | undefined): Set<string> {
  const list = request?.extensions.openai?.namespaces;
  return new Set(Array.isArray(list) ? list.map((namespace) => String((namespace as { name?: unknown }).name)) : []);
}
