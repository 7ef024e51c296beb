// Canonical messages → Converse messages. Converse wants user and assistant turns to
// alternate and tool results inside the user turn, so adjacent user and tool messages are
// merged into one user message (decode-content splits them back, in order).
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html
import type { TranslationWarning } from '../../canonical/codec.js';
import type {
  AssistantPart, CacheControl, DocumentPart, ImagePart, MediaSource, Message, ToolResultPart, UserPart,
} from '../../canonical/request.js';
import { documentFormat, imageFormat } from './media-types.js';
import { isPlainObject } from '../../is-plain-object.js';

type Block = Record<string, unknown>;

export function encodeMessages(messages: Message[], warnings: TranslationWarning[]): Block[] {
  const out: Array<{ role: 'user' | 'assistant'; content: Block[] }> = [];
  let documents = 0;
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks: Block[] = [];
    for (const part of message.content) {
      if (part.type === 'document') documents += 1;
      blocks.push(...encodePart(part, warnings, documents));
    }
    const previous = out.at(-1);
    if (previous?.role === role) previous.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

function encodePart(part: UserPart | AssistantPart | ToolResultPart, warnings: TranslationWarning[], documents: number): Block[] {
  switch (part.type) {
    case 'text': return withCachePoint({ text: part.text }, part.cacheControl, warnings);
    case 'image': return withCachePoint(encodeImage(part, warnings), part.cacheControl, warnings);
    case 'document': return withCachePoint(encodeDocument(part, warnings, documents), part.cacheControl, warnings);
    case 'tool-call': return [{ toolUse: { toolUseId: part.id, name: part.name, input: parseArguments(part.arguments, warnings) } }];
    case 'tool-result': return withCachePoint(encodeToolResult(part, warnings), part.cacheControl, warnings);
    case 'reasoning': return encodeReasoning(part, warnings);
  }
}

// A cachePoint block after the block it closes: https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
export function withCachePoint(block: Block | undefined, cache: CacheControl | undefined, warnings: TranslationWarning[]): Block[] {
  if (block === undefined) return [];
  if (cache === undefined) return [block];
  if (cache.ttl !== undefined) warnings.push({ code: 'dropped:cache_control.ttl', detail: cache.ttl });
  return [block, { cachePoint: { type: 'default' } }];
}

function encodeImage(part: ImagePart, warnings: TranslationWarning[]): Block | undefined {
  const mediaType = part.source.type === 'url' ? undefined : part.source.mediaType;
  const format = mediaType === undefined ? undefined : imageFormat(mediaType);
  const source = encodeSource(part.source, warnings);
  if (format === undefined || source === undefined) {
    warnings.push({ code: 'dropped:image', detail: part.source.type === 'url' ? 'Bedrock cannot fetch image URLs' : `unsupported image type ${mediaType ?? ''}` });
    return undefined;
  }
  return { image: { format, source } };
}

function encodeDocument(part: DocumentPart, warnings: TranslationWarning[], position: number): Block | undefined {
  const mediaType = part.source.type === 'url' ? undefined : part.source.mediaType;
  const format = mediaType === undefined ? undefined : documentFormat(mediaType);
  const source = encodeSource(part.source, warnings);
  if (format === undefined || source === undefined) {
    warnings.push({ code: 'dropped:document', detail: part.source.type === 'url' ? 'Bedrock cannot fetch document URLs' : `unsupported document type ${mediaType ?? ''}` });
    return undefined;
  }
  return { document: { format, name: documentName(part.title, position), source } };
}

// DocumentBlock.name allows letters, digits, whitespace (not repeated), hyphens, parentheses and brackets.
function documentName(title: string | undefined, position: number): string {
  const cleaned = (title ?? '').replace(/[^A-Za-z0-9\s\-()[\]]/g, '-').replace(/\s+/g, ' ').trim();
  return cleaned === '' ? `document-${position}` : cleaned;
}

function encodeSource(source: MediaSource, warnings: TranslationWarning[]): Block | undefined {
  if (source.type === 'base64') return { bytes: source.data };
  if (source.type === 'file' && source.fileId.startsWith('s3://')) return { s3Location: { uri: source.fileId } };
  if (source.type === 'file') warnings.push({ code: 'dropped:file-id', detail: 'only s3:// locations reach Bedrock' });
  return undefined;
}

function encodeToolResult(part: ToolResultPart, warnings: TranslationWarning[]): Block {
  const content: Block[] = [];
  for (const item of part.content) {
    const block = item.type === 'text' ? { text: item.text } : encodeImage(item, warnings);
    if (block !== undefined) content.push(block);
  }
  const result: Block = { toolUseId: part.toolCallId, content };
  if (part.isError === true) result.status = 'error';
  return { toolResult: result };
}

// toolUse.input is a JSON object; arguments that do not parse to one are sent as {} and said so.
function parseArguments(text: string, warnings: TranslationWarning[]): unknown {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    if (isPlainObject(value)) return value;
  } catch { /* fall through */ }
  warnings.push({ code: 'mapped:tool-arguments-invalid-json', detail: 'sent as {}' });
  return {};
}

// Opaque reasoning is only valid back where it was made; Claude on Bedrock shares Anthropic's signatures.
function encodeReasoning(part: Extract<AssistantPart, { type: 'reasoning' }>, warnings: TranslationWarning[]): Block[] {
  if (part.origin !== undefined && part.origin !== 'anthropic') {
    warnings.push({ code: 'dropped:reasoning', detail: `reasoning from ${part.origin} cannot be replayed to Bedrock` });
    return [];
  }
  if (part.redacted !== undefined) return [{ reasoningContent: { redactedContent: part.redacted } }];
  const reasoningText: Block = { text: part.text };
  if (part.signature !== undefined) reasoningText.signature = part.signature;
  if (part.encrypted !== undefined) warnings.push({ code: 'dropped:reasoning.encrypted' });
  return [{ reasoningContent: { reasoningText } }];
}
