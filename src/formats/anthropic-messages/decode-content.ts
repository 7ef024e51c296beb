// Anthropic content blocks → canonical parts, for requests (strict: wrong types are refused).
// https://docs.anthropic.com/en/api/messages#body-messages-content
import type { TranslationWarning } from '../../canonical/codec.js';
import type {
  AssistantPart, CacheControl, DocumentPart, ImagePart, MediaSource, ReasoningPart, TextPart, ToolResultPart,
} from '../../canonical/request.js';
import { unwrapForeignSignature } from '../shared/foreign-thinking-signature.js';
import { fromSafeToolId } from '../shared/safe-tool-id.js';
import { invalid, isPlainObject, missing, optionalString, requireArray, requireRecord, requireString, type JsonRecord } from '../shared/json-guards.js';

export function decodeCacheControl(value: unknown, param: string): CacheControl | undefined {
  if (value === undefined || value === null) return undefined;
  const record = requireRecord(value, param);
  if (record.type !== 'ephemeral') throw invalid(`${param}.type`, '"ephemeral"');
  const ttl = optionalString(record.ttl, `${param}.ttl`);
  return ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}

function withCache<T extends object>(part: T, block: JsonRecord, param: string): T {
  const cacheControl = decodeCacheControl(block.cache_control, `${param}.cache_control`);
  return cacheControl ? { ...part, cacheControl } : part;
}

export function decodeTextBlock(block: JsonRecord, param: string, warnings: TranslationWarning[]): TextPart {
  const text = optionalString(block.text, `${param}.text`);
  if (text === undefined) throw missing(`${param}.text`);
  if (Array.isArray(block.citations) && block.citations.length > 0) warnings.push({ code: 'dropped:citations', detail: param });
  return withCache({ type: 'text', text }, block, param);
}

function decodeSource(source: JsonRecord, param: string): MediaSource {
  if (source.type === 'url') return { type: 'url', url: requireString(source.url, `${param}.url`) };
  if (source.type === 'file') return { type: 'file', fileId: requireString(source.file_id, `${param}.file_id`) };
  if (source.type === 'base64') {
    const mediaType = requireString(source.media_type, `${param}.media_type`);
    return { type: 'base64', mediaType, data: requireString(source.data, `${param}.data`) };
  }
  if (source.type === 'text') {
    // A plain-text document travels as base64 text/plain, the one MediaSource every dialect has.
    const text = requireString(source.data, `${param}.data`);
    return { type: 'base64', mediaType: optionalString(source.media_type, `${param}.media_type`) ?? 'text/plain', data: Buffer.from(text, 'utf8').toString('base64') };
  }
  throw invalid(`${param}.type`, 'one of base64, url, file, text');
}

export function decodeImageBlock(block: JsonRecord, param: string): ImagePart {
  return withCache({ type: 'image', source: decodeSource(requireRecord(block.source, `${param}.source`), `${param}.source`) }, block, param);
}

export function decodeDocumentBlock(block: JsonRecord, param: string, warnings: TranslationWarning[]): DocumentPart {
  const sourceRecord = requireRecord(block.source, `${param}.source`);
  let source: MediaSource;
  if (sourceRecord.type === 'content') {
    warnings.push({ code: 'mapped:document:content', detail: `${param}: content blocks became one text document` });
    source = { type: 'base64', mediaType: 'text/plain', data: Buffer.from(joinTexts(sourceRecord.content), 'utf8').toString('base64') };
  } else source = decodeSource(sourceRecord, `${param}.source`);
  const part: DocumentPart = { type: 'document', source };
  const title = optionalString(block.title, `${param}.title`);
  if (title !== undefined) part.title = title;
  if (block.context !== undefined || block.citations !== undefined) warnings.push({ code: 'dropped:document.citations', detail: param });
  return withCache(part, block, param);
}

function joinTexts(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((item) => (isPlainObject(item) && typeof item.text === 'string' ? item.text : '')).join('\n');
}

export function decodeToolResultBlock(block: JsonRecord, param: string, warnings: TranslationWarning[]): ToolResultPart {
  // The provider's own id again when gw mapped it for Anthropic's id pattern (safe-tool-id.ts).
  const toolCallId = fromSafeToolId(requireString(block.tool_use_id, `${param}.tool_use_id`));
  const content: Array<TextPart | ImagePart> = [];
  if (typeof block.content === 'string') content.push({ type: 'text', text: block.content });
  else if (block.content !== undefined && block.content !== null) {
    requireArray(block.content, `${param}.content`).forEach((item, index) => {
      const inner = requireRecord(item, `${param}.content[${index}]`);
      const innerParam = `${param}.content[${index}]`;
      if (inner.type === 'text') content.push(decodeTextBlock(inner, innerParam, warnings));
      else if (inner.type === 'image') content.push(decodeImageBlock(inner, innerParam));
      else warnings.push({ code: `dropped:tool_result:${String(inner.type)}`, detail: innerParam });
    });
  }
  const part: ToolResultPart = { type: 'tool-result', toolCallId, content };
  if (block.is_error === true) part.isError = true;
  return withCache(part, block, param);
}

/** A gw carrier (foreign-thinking-signature.ts) gives back the provider's own opaque value and origin. */
function decodeThinkingBlock(block: JsonRecord, param: string): ReasoningPart {
  const text = optionalString(block.thinking, `${param}.thinking`) ?? '';
  const signature = optionalString(block.signature, `${param}.signature`);
  const carried = signature === undefined ? null : unwrapForeignSignature(signature);
  if (carried === null) return { type: 'reasoning', text, ...(signature === undefined ? {} : { signature }), origin: 'anthropic' };
  if (carried.origin === 'none') return { type: 'reasoning', text };
  if (carried.origin === 'openai') return { type: 'reasoning', text, encrypted: carried.opaque, origin: 'openai' };
  return { type: 'reasoning', text, ...(carried.opaque === '' ? {} : { signature: carried.opaque }), origin: 'google' };
}

export function decodeAssistantBlock(block: JsonRecord, param: string, warnings: TranslationWarning[]): AssistantPart | undefined {
  switch (block.type) {
    case 'text':
      return decodeTextBlock(block, param, warnings);
    case 'tool_use': {
      const id = requireString(block.id, `${param}.id`);
      const name = requireString(block.name, `${param}.name`);
      if (block.cache_control !== undefined && block.cache_control !== null) warnings.push({ code: 'dropped:cache_control', detail: `${param}: a tool call has no cache breakpoint` });
      return { type: 'tool-call', id: fromSafeToolId(id), name, arguments: JSON.stringify(block.input ?? {}) };
    }
    case 'thinking':
      return decodeThinkingBlock(block, param);
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: requireString(block.data, `${param}.data`), origin: 'anthropic' };
    default:
      // Server tool calls and their results (web search, code execution…) only mean something to Anthropic.
      warnings.push({ code: `dropped:${String(block.type)}`, detail: param });
      return undefined;
  }
}
