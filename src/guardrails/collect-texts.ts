// The texts of a JSON body a guardrail judges, each with its place (a JSON pointer, RFC 6901),
// whatever the dialect: every string value, as DLP walks them (src/dlp/walk-strings.ts), except
// what is no one's words: structural fields (role, type, ids, the model, formats), tool schemas
// and settings, and binary payloads (a data: URL, base64 `data`/`bytes`). A rewrite puts each new
// text back where it was read, in the same object, so what the guardrail saw is what leaves.
import { isPlainObject } from '../is-plain-object.js';

type Container = Record<string, unknown> | unknown[];

interface Slot { container: Container; key: string | number }

export interface CollectedTexts {
  texts: Array<{ place: string; text: string }>;
  slots: Slot[];
}

/** Values under these keys are names, ids, settings or enumerations, not text anyone wrote. */
const STRUCTURAL = new Set([
  'model', 'role', 'type', 'id', 'object', 'tool_call_id', 'tool_use_id', 'call_id', 'item_id', 'response_id', 'previous_response_id',
  'media_type', 'mime_type', 'mimeType', 'format', 'detail', 'finish_reason', 'stop_reason', 'status', 'anthropic_version',
  'system_fingerprint', 'service_tier', 'signature', 'encrypted_content', 'data', 'bytes', 'file_id', 'fileUri', 'file_uri', 'cache_control',
  'reasoning_effort', 'modalities', 'voice', 'user', 'name', 'finishReason', 'modelVersion', 'responseId', 'logprobs',
]);

/** Whole subtrees that are configuration, schemas or accounting, not words. */
const SKIPPED_TREES = new Set([
  'tools', 'tool_choice', 'response_format', 'generationConfig', 'safetySettings', 'metadata', 'usage', 'usageMetadata', 'stream_options',
  'text_format', 'toolConfig', 'thinking', 'reasoning', 'parallel_tool_calls', 'prediction', 'audio',
]);

const MAX_DEPTH = 64;

export function collectTexts(body: unknown): CollectedTexts {
  const collected: CollectedTexts = { texts: [], slots: [] };
  if (typeof body === 'string') {
    if (isWords(body)) collected.texts.push({ place: '', text: body });
    return collected;
  }
  if (Array.isArray(body) || isPlainObject(body)) walk(body, '', collected, 0);
  return collected;
}

function walk(container: Container, pointer: string, collected: CollectedTexts, depth: number): void {
  if (depth > MAX_DEPTH) return;
  const entries: Array<[string | number, unknown]> = Array.isArray(container) ? container.map((value, index) => [index, value]) : Object.entries(container);
  for (const [key, value] of entries) {
    if (typeof key === 'string' && SKIPPED_TREES.has(key)) continue;
    const place = `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (typeof value === 'string') {
      if (typeof key === 'string' && STRUCTURAL.has(key)) continue;
      if (!isWords(value)) continue;
      collected.texts.push({ place, text: value });
      collected.slots.push({ container, key });
    } else if (Array.isArray(value) || isPlainObject(value)) {
      walk(value, place, collected, depth + 1);
    }
  }
}

function isWords(text: string): boolean {
  return text.trim() !== '' && !text.startsWith('data:');
}

/**
 * Puts a rewrite back: each non-null entry replaces the text read at the same index. A body that
 * is one string comes back as the new string; an object is changed in place and returned.
 */
export function applyRewrite(body: unknown, collected: CollectedTexts, texts: ReadonlyArray<string | null>): unknown {
  if (typeof body === 'string') return texts[0] ?? body;
  texts.forEach((text, index) => {
    const slot = collected.slots[index];
    if (text === null || slot === undefined) return;
    if (Array.isArray(slot.container)) slot.container[Number(slot.key)] = text;
    else slot.container[String(slot.key)] = text;
  });
  return body;
}
