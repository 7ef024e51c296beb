// Canonical system parts and messages → chat `messages`.
// https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, DocumentPart, ImagePart, Message, TextPart, ToolResultPart, UserPart } from '../../canonical/request.js';

type Wire = Record<string, unknown>;

export function encodeOpenAiMessages(system: TextPart[], messages: Message[], warnings: TranslationWarning[]): Wire[] {
  const wire: Wire[] = system.map((part) => {
    warnCacheControl(part, warnings);
    return { role: 'system', content: part.text };
  });
  for (const message of messages) {
    if (message.role === 'user') wire.push(encodeUser(message.content, warnings));
    else if (message.role === 'assistant') wire.push(encodeAssistant(message.content, warnings));
    else wire.push(...message.content.map((result) => encodeToolResult(result, warnings)));
  }
  return wire;
}

function warnCacheControl(part: { cacheControl?: unknown }, warnings: TranslationWarning[]): void {
  // OpenAI caches prompts automatically; explicit breakpoints have no chat field.
  if (part.cacheControl !== undefined) warnings.push({ code: 'dropped:cache_control', detail: 'OpenAI caches prompt prefixes automatically' });
}

function encodeUser(parts: UserPart[], warnings: TranslationWarning[]): Wire {
  const only = parts[0];
  if (parts.length === 1 && only?.type === 'text') {
    warnCacheControl(only, warnings);
    return { role: 'user', content: only.text };
  }
  const content: Wire[] = [];
  for (const part of parts) {
    warnCacheControl(part, warnings);
    const encoded = part.type === 'text' ? { type: 'text', text: part.text }
      : part.type === 'image' ? encodeImage(part, warnings) : encodeDocument(part, warnings);
    if (encoded) content.push(encoded);
  }
  return { role: 'user', content };
}

function encodeImage(part: ImagePart, warnings: TranslationWarning[]): Wire | undefined {
  const { source } = part;
  if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url } };
  if (source.type === 'base64') return { type: 'image_url', image_url: { url: `data:${source.mediaType};base64,${source.data}` } };
  warnings.push({ code: 'dropped:image:file', detail: 'chat image parts take URLs, not file ids' });
  return undefined;
}

function encodeDocument(part: DocumentPart, warnings: TranslationWarning[]): Wire | undefined {
  const { source } = part;
  const filename = part.title === undefined ? {} : { filename: part.title };
  if (source.type === 'file') return { type: 'file', file: { file_id: source.fileId, ...filename } };
  if (source.type === 'url') {
    warnings.push({ code: 'dropped:document:url', detail: 'chat file parts take inline data or a file id, not a URL' });
    return undefined;
  }
  if (source.mediaType.startsWith('text/')) {
    // Chat accepts only PDF files; a plain-text document is the same words as a text part.
    warnings.push({ code: 'mapped:document:text', detail: 'a text document became a text part' });
    return { type: 'text', text: Buffer.from(source.data, 'base64').toString('utf8') };
  }
  return { type: 'file', file: { file_data: `data:${source.mediaType};base64,${source.data}`, filename: part.title ?? 'document.pdf' } };
}

function encodeAssistant(parts: AssistantPart[], warnings: TranslationWarning[]): Wire {
  const texts: string[] = [];
  const toolCalls: Wire[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      warnCacheControl(part, warnings);
      texts.push(part.text);
    } else if (part.type === 'tool-call') {
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    } else {
      // The official chat API takes no reasoning back; signatures only mean something to their origin.
      warnings.push({ code: 'dropped:reasoning', detail: 'chat completions has no reasoning input' });
    }
  }
  const content = texts.length === 0 ? null : texts.length === 1 ? texts[0] : texts.map((text) => ({ type: 'text', text }));
  return { role: 'assistant', content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
}

function encodeToolResult(result: ToolResultPart, warnings: TranslationWarning[]): Wire {
  warnCacheControl(result, warnings);
  if (result.isError === true) warnings.push({ code: 'dropped:tool_result.is_error', detail: 'chat tool messages have no error flag' });
  const texts: string[] = [];
  for (const part of result.content) {
    if (part.type === 'text') texts.push(part.text);
    else warnings.push({ code: 'dropped:tool_result:image', detail: 'chat tool messages take text only' });
  }
  const content = texts.length === 1 ? texts[0] : texts.length === 0 ? '' : texts.map((text) => ({ type: 'text', text }));
  return { role: 'tool', tool_call_id: result.toolCallId, content };
}
