// Anthropic content blocks → canonical parts, for requests (strict: wrong types are refused).
// https://docs.anthropic.com/en/api/messages#body-messages-content
import type { TranslationWarning } from '../../canonical/codec.js';
import type {
  AssistantPart, CacheControl, DocumentPart, ImagePart, MediaSource, ReasoningPart, TextPart, ToolResultPart,
} from '../../canonical/request.js';
import { unwrapForeignSignature } from '../shared/foreign-thinking-signature.js';
import { fromSafeToolId } from '../shared/safe-tool-id.js';
import { invalid, isRecord, optionalString, requireArray, requireRecord, type JsonObject } from '../shared/read-json.js';

export function decodeCacheControl(value: unknown, param: string): CacheControl | undefined {
  if (value === undefined || value === null) return undefined;
  const record = requireRecord(value, param);
  if (record.type !== 'ephemeral') invalid(`${param}.type`, 'must be "ephemeral"');
  const ttl = optionalString(record, 'ttl', `${param}.ttl`);
  return ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}

function withCache<T extends object>(part: T, block: JsonObject, param: string): T {
  const cacheControl = decodeCacheControl(block.cache_control, `${param}.cache_control`);
  return cacheControl ? { ...part, cacheControl } : part;
}

export function decodeTextBlock(block: JsonObject, param: string, warnings: TranslationWarning[]): TextPart {
  const text = optionalString(block, 'text', `${param}.text`);
  if (text === undefined) invalid(`${param}.text`, 'is required');
  if (Array.isArray(block.citations) && block.citations.length > 0) warnings.push({ code: 'dropped:citations', detail: param });
  return withCache({ type: 'text', text }, block, param);
}

function decodeSource(source: JsonObject, param: string): MediaSource {
  if (source.type === 'url') return { type: 'url', url: optionalString(source, 'url', `${param}.url`) ?? invalid(`${param}.url`, 'is required') };
  if (source.type === 'file') return { type: 'file', fileId: optionalString(source, 'file_id', `${param}.file_id`) ?? invalid(`${param}.file_id`, 'is required') };
  if (source.type === 'base64') {
    const mediaType = optionalString(source, 'media_type', `${param}.media_type`) ?? invalid(`${param}.media_type`, 'is required');
    return { type: 'base64', mediaType, data: optionalString(source, 'data', `${param}.data`) ?? invalid(`${param}.data`, 'is required') };
  }
  if (source.type === 'text') {
    // A plain-text document travels as base64 text/plain, the one MediaSource every dialect has.
    const text = optionalString(source, 'data', `${param}.data`) ?? invalid(`${param}.data`, 'is required');
    return { type: 'base64', mediaType: optionalString(source, 'media_type', `${param}.media_type`) ?? 'text/plain', data: Buffer.from(text, 'utf8').toString('base64') };
  }
  return invalid(`${param}.type`, 'must be one of base64, url, file, text');
}

export function decodeImageBlock(block: JsonObject, param: string): ImagePart {
  return withCache({ type: 'image', source: decodeSource(requireRecord(block.source, `${param}.source`), `${param}.source`) }, block, param);
}

export function decodeDocumentBlock(block: JsonObject, param: string, warnings: TranslationWarning[]): DocumentPart {
  const sourceRecord = requireRecord(block.source, `${param}.source`);
  let source: MediaSource;
  if (sourceRecord.type === 'content') {
    warnings.push({ code: 'mapped:document:content', detail: `${param}: content blocks became one text document` });
    source = { type: 'base64', mediaType: 'text/plain', data: Buffer.from(joinTexts(sourceRecord.content), 'utf8').toString('base64') };
  } else source = decodeSource(sourceRecord, `${param}.source`);
  const part: DocumentPart = { type: 'document', source };
  const title = optionalString(block, 'title', `${param}.title`);
  if (title !== undefined) part.title = title;
  if (block.context !== undefined || block.citations !== undefined) warnings.push({ code: 'dropped:document.citations', detail: param });
  return withCache(part, block, param);
}

function joinTexts(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((item) => (isRecord(item) && typeof item.text === 'string' ? item.text : '')).join('\n');
}

export function decodeToolResultBlock(block: JsonObject, param: string, warnings: TranslationWarning[]): ToolResultPart {
  // The provider's own id again when gw mapped it for Anthropic's id pattern (safe-tool-id.ts).
  const toolCallId = fromSafeToolId(optionalString(block, 'tool_use_id', `${param}.tool_use_id`) ?? invalid(`${param}.tool_use_id`, 'is required'));
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
function decodeThinkingBlock(block: JsonObject, param: string): ReasoningPart {
  const text = optionalString(block, 'thinking', `${param}.thinking`) ?? '';
  const signature = optionalString(block, 'signature', `${param}.signature`);
  const carried = signature === undefined ? null : unwrapForeignSignature(signature);
  if (carried === null) return { type: 'reasoning', text, ...(signature === undefined ? {} : { signature }), origin: 'anthropic' };
  if (carried.origin === 'none') return { type: 'reasoning', text };
  if (carried.origin === 'openai') return { type: 'reasoning', text, encrypted: carried.opaque, origin: 'openai' };
  return { type: 'reasoning', text, ...(carried.opaque === '' ? {} : { signature: carried.opaque }), origin: 'google' };
}

export function decodeAssistantBlock(block: JsonObject, param: string, warnings: TranslationWarning[]): AssistantPart | undefined {
  switch (block.type) {
    case 'text':
      return decodeTextBlock(block, param, warnings);
    case 'tool_use': {
      const id = optionalString(block, 'id', `${param}.id`) ?? invalid(`${param}.id`, 'is required');
      const name = optionalString(block, 'name', `${param}.name`) ?? invalid(`${param}.name`, 'is required');
      if (block.cache_control !== undefined && block.cache_control !== null) warnings.push({ code: 'dropped:cache_control', detail: `${param}: a tool call has no cache breakpoint` });
      return { type: 'tool-call', id: fromSafeToolId(id), name, arguments: JSON.stringify(block.input ?? {}) };
    }
    case 'thinking':
      return decodeThinkingBlock(block, param);
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: optionalString(block, 'data', `${param}.data`) ?? invalid(`${param}.data`, 'is required'), origin: 'anthropic' };
    default:
      // Server tool calls and their results (web search, code execution…) only mean something to Anthropic.
      warnings.push({ code: `dropped:${String(block.type)}`, detail: param });
      return undefined;
  }
}
