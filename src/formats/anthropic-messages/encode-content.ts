// Canonical parts → Anthropic content blocks, shared by requests and responses.
// https://docs.anthropic.com/en/api/messages#body-messages-content
import type { TranslationWarning } from '../../canonical/codec.js';
import { toSafeToolId } from '../shared/safe-tool-id.js';
import type { CacheControl, DocumentPart, ImagePart, MediaSource, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from '../../canonical/request.js';

type Block = Record<string, unknown>;

function withCache(block: Block, cacheControl: CacheControl | undefined): Block {
  return cacheControl ? { ...block, cache_control: cacheControl } : block;
}

export function encodeTextBlock(part: TextPart): Block {
  return withCache({ type: 'text', text: part.text }, part.cacheControl);
}

function encodeSource(source: MediaSource, document: boolean): Block {
  if (source.type === 'url') return { type: 'url', url: source.url };
  if (source.type === 'file') return { type: 'file', file_id: source.fileId };
  if (document && source.mediaType.startsWith('text/')) {
    return { type: 'text', media_type: 'text/plain', data: Buffer.from(source.data, 'base64').toString('utf8') };
  }
  return { type: 'base64', media_type: source.mediaType, data: source.data };
}

export function encodeImageBlock(part: ImagePart): Block {
  return withCache({ type: 'image', source: encodeSource(part.source, false) }, part.cacheControl);
}

export function encodeDocumentBlock(part: DocumentPart): Block {
  const block: Block = { type: 'document', source: encodeSource(part.source, true) };
  if (part.title !== undefined) block.title = part.title;
  return withCache(block, part.cacheControl);
}

export function encodeToolResultBlock(part: ToolResultPart): Block {
  const content = part.content.map((inner) => (inner.type === 'text' ? encodeTextBlock(inner) : encodeImageBlock(inner)));
  const block: Block = { type: 'tool_result', tool_use_id: toSafeToolId(part.toolCallId), content };
  if (part.isError === true) block.is_error = true;
  return withCache(block, part.cacheControl);
}

/** Anthropic wants an object; arguments that are not a JSON object (a model's broken output) become {}. */
export function encodeToolUseBlock(part: ToolCallPart, warnings: TranslationWarning[]): Block {
  let input: unknown = {};
  if (part.arguments.trim() !== '') {
    try {
      input = JSON.parse(part.arguments);
    } catch {
      input = undefined;
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      warnings.push({ code: 'mapped:tool_call.arguments', detail: `${part.name}: arguments were not a JSON object` });
      input = {};
    }
  }
  return { type: 'tool_use', id: toSafeToolId(part.id), name: part.name, input };
}

/**
 * Thinking goes back only with what Anthropic issued: a signature or redacted data from Anthropic itself.
 * https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
export function encodeReasoningBlock(part: ReasoningPart, warnings: TranslationWarning[]): Block | undefined {
  if (part.origin !== undefined && part.origin !== 'anthropic') {
    warnings.push({ code: 'dropped:reasoning', detail: `thinking from ${part.origin} has no Anthropic signature` });
    return undefined;
  }
  if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
  if (part.signature !== undefined && part.signature !== '') return { type: 'thinking', thinking: part.text, signature: part.signature };
  warnings.push({ code: 'dropped:reasoning', detail: 'thinking without a signature is refused by Anthropic' });
  return undefined;
}
