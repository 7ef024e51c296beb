// Converse content blocks → canonical parts. A user message may mix toolResult blocks with
// text; the canonical model keeps tool results in their own `tool` message, so a user
// message is split into runs, in order. A cachePoint block marks the block before it.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html
import type { TranslationWarning } from '../../canonical/codec.js';
import type {
  AssistantPart, ImagePart, Message, MediaSource, TextPart, ToolResultPart, UserPart,
} from '../../canonical/request.js';
import { fromSafeToolId } from '../shared/safe-tool-id.js';
import { documentMediaType, imageMediaType } from './media-types.js';
import { requireArray, invalid, isPlainObject, requireRecord, requireString, type JsonRecord } from '../shared/json-guards.js';

type Cacheable = { cacheControl?: { type: 'ephemeral'; ttl?: string } };

export interface DecodeScope {
  warnings: TranslationWarning[];
  /** toolUseId → tool name, from earlier assistant turns (Gemini matches results by name). */
  toolNames: Map<string, string>;
}

export function decodeMessage(value: unknown, param: string, scope: DecodeScope): Message[] {
  const message = requireRecord(value, param);
  const blocks = requireArray(message.content, `${param}.content`);
  if (message.role === 'assistant') return [{ role: 'assistant', content: decodeAssistantBlocks(blocks, `${param}.content`, scope) }];
  if (message.role !== 'user') throw invalid(`${param}.role`, '"user" or "assistant"');
  return decodeUserBlocks(blocks, `${param}.content`, scope);
}

function decodeUserBlocks(blocks: unknown[], param: string, scope: DecodeScope): Message[] {
  const messages: Message[] = [];
  let last: Cacheable | undefined;
  blocks.forEach((value, index) => {
    const block = requireRecord(value, `${param}[${index}]`);
    if (block.cachePoint !== undefined) return markCached(last, block.cachePoint, scope);
    const part = block.toolResult !== undefined
      ? decodeToolResult(requireRecord(block.toolResult, `${param}[${index}].toolResult`), `${param}[${index}].toolResult`, scope)
      : decodeUserPart(block, `${param}[${index}]`, scope);
    last = part;
    if (part === undefined) return;
    const role = part.type === 'tool-result' ? 'tool' : 'user';
    const previous = messages.at(-1);
    if (previous?.role === role) (previous.content as Array<typeof part>).push(part);
    else messages.push(role === 'tool' ? { role, content: [part as ToolResultPart] } : { role, content: [part as UserPart] });
  });
  return messages;
}

function decodeUserPart(block: JsonRecord, param: string, scope: DecodeScope): UserPart | undefined {
  if (typeof block.text === 'string') return { type: 'text', text: block.text };
  if (block.image !== undefined) return decodeImage(requireRecord(block.image, `${param}.image`), `${param}.image`);
  if (block.document !== undefined) return decodeDocument(requireRecord(block.document, `${param}.document`), `${param}.document`, scope);
  scope.warnings.push({ code: `dropped:${Object.keys(block)[0] ?? 'empty-block'}`, detail: `${param} has no canonical equivalent` });
  return undefined;
}

function decodeImage(image: JsonRecord, param: string): ImagePart {
  const format = requireString(image.format, `${param}.format`);
  const mediaType = imageMediaType(format);
  if (mediaType === undefined) throw invalid(`${param}.format`, 'png, jpeg, gif or webp');
  return { type: 'image', source: decodeSource(requireRecord(image.source, `${param}.source`), `${param}.source`, mediaType) };
}

function decodeDocument(document: JsonRecord, param: string, scope: DecodeScope): UserPart | undefined {
  const format = requireString(document.format ?? 'txt', `${param}.format`);
  const mediaType = documentMediaType(format);
  if (mediaType === undefined) throw invalid(`${param}.format`, 'pdf, csv, doc, docx, xls, xlsx, html, txt or md');
  const source = requireRecord(document.source, `${param}.source`);
  if (typeof source.text === 'string') {
    scope.warnings.push({ code: 'mapped:document-text-to-base64', detail: `${param}.source.text` });
    return { type: 'document', source: { type: 'base64', mediaType, data: Buffer.from(source.text, 'utf8').toString('base64') }, ...title(document) };
  }
  return { type: 'document', source: decodeSource(source, `${param}.source`, mediaType), ...title(document) };
}

function title(document: JsonRecord): { title?: string } {
  return typeof document.name === 'string' ? { title: document.name } : {};
}

// bytes are base64 in the JSON wire form; s3Location is a provider-side file.
function decodeSource(source: JsonRecord, param: string, mediaType: string): MediaSource {
  if (typeof source.bytes === 'string') return { type: 'base64', mediaType, data: source.bytes };
  if (isPlainObject(source.s3Location) && typeof source.s3Location.uri === 'string') return { type: 'file', fileId: source.s3Location.uri, mediaType };
  throw invalid(param, '{ bytes: <base64> } or { s3Location: { uri } }');
}

function decodeToolResult(result: JsonRecord, param: string, scope: DecodeScope): ToolResultPart {
  const toolCallId = fromSafeToolId(requireString(result.toolUseId, `${param}.toolUseId`));
  const content: Array<TextPart | ImagePart> = [];
  requireArray(result.content ?? [], `${param}.content`).forEach((value, index) => {
    const block = requireRecord(value, `${param}.content[${index}]`);
    if (typeof block.text === 'string') content.push({ type: 'text', text: block.text });
    else if (block.json !== undefined) {
      scope.warnings.push({ code: 'mapped:tool-result-json-to-text' });
      content.push({ type: 'text', text: JSON.stringify(block.json) });
    } else if (block.image !== undefined) content.push(decodeImage(requireRecord(block.image, `${param}.content[${index}].image`), `${param}.content[${index}].image`));
    else scope.warnings.push({ code: `dropped:tool-result:${Object.keys(block)[0] ?? 'empty'}` });
  });
  const part: ToolResultPart = { type: 'tool-result', toolCallId, content };
  const toolName = scope.toolNames.get(toolCallId);
  if (toolName !== undefined) part.toolName = toolName;
  if (result.status === 'error') part.isError = true;
  return part;
}

function decodeAssistantBlocks(blocks: unknown[], param: string, scope: DecodeScope): AssistantPart[] {
  const parts: AssistantPart[] = [];
  blocks.forEach((value, index) => {
    const part = decodeAssistantBlock(requireRecord(value, `${param}[${index}]`), `${param}[${index}]`, scope);
    if (part !== undefined) parts.push(part);
  });
  return parts;
}

export function decodeAssistantBlock(block: JsonRecord, param: string, scope: DecodeScope): AssistantPart | undefined {
  if (typeof block.text === 'string') return { type: 'text', text: block.text };
  if (block.toolUse !== undefined) {
    const toolUse = requireRecord(block.toolUse, `${param}.toolUse`);
    const id = fromSafeToolId(requireString(toolUse.toolUseId, `${param}.toolUse.toolUseId`));
    const name = requireString(toolUse.name, `${param}.toolUse.name`);
    scope.toolNames.set(id, name);
    return { type: 'tool-call', id, name, arguments: JSON.stringify(toolUse.input ?? {}) };
  }
  if (block.reasoningContent !== undefined) return decodeReasoning(requireRecord(block.reasoningContent, `${param}.reasoningContent`));
  if (block.cachePoint !== undefined) {
    scope.warnings.push({ code: 'dropped:cache_point:assistant' });
    return undefined;
  }
  scope.warnings.push({ code: `dropped:${Object.keys(block)[0] ?? 'empty-block'}`, detail: `${param} has no canonical equivalent` });
  return undefined;
}

// Reasoning on Bedrock comes from Claude; Anthropic documents its signatures as valid across
// the Claude API, Bedrock and Vertex, so the origin is 'anthropic'.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ReasoningContentBlock.html
function decodeReasoning(reasoning: JsonRecord): AssistantPart {
  if (typeof reasoning.redactedContent === 'string') return { type: 'reasoning', text: '', redacted: reasoning.redactedContent, origin: 'anthropic' };
  const text = isPlainObject(reasoning.reasoningText) ? reasoning.reasoningText : {};
  const part: AssistantPart = { type: 'reasoning', text: typeof text.text === 'string' ? text.text : '', origin: 'anthropic' };
  if (typeof text.signature === 'string') part.signature = text.signature;
  return part;
}

export function markCached(part: Cacheable | undefined, cachePoint: unknown, scope: DecodeScope): void {
  if (part === undefined) {
    scope.warnings.push({ code: 'dropped:cache_point', detail: 'a cachePoint with no block before it' });
    return;
  }
  const ttl = isPlainObject(cachePoint) && typeof cachePoint.ttl === 'string' ? cachePoint.ttl : undefined;
  part.cacheControl = ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}
