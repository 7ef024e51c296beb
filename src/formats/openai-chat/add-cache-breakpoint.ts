// The prompt-cache breakpoint gw adds to an OpenAI Chat or Responses body (Responses' input items
// share Chat's message shape: role and content parts) whose client sent none
// (policy `cache_marker on`, docs/prompt-cache.md), only for the models that take one: GPT-5.6
// and later. The breakpoint, `prompt_cache_breakpoint: {mode: "explicit"}`, goes on a content
// part and marks the exact end of a reusable prefix; gw puts it on the last part of the first
// system or developer message (the instructions every turn repeats). A plain-string message
// becomes one text part. Any breakpoint the client sent wins: then nothing is added.
// (https://developers.openai.com/api/docs/guides/prompt-caching#prompt-cache-breakpoints)
import { isPlainObject } from '../../is-plain-object.js';
import { hasKey, withLastMarked } from '../shared/cache-marker-parts.js';

type JsonObject = Record<string, unknown>;

const BREAKPOINT = { prompt_cache_breakpoint: { mode: 'explicit' } } as const;

/** gpt-5.6…, gpt-5.10…, gpt-6… (a provider prefix such as `openai/` allowed); older models have no breakpoint. */
export function takesCacheBreakpoint(model: string | null): boolean {
  const match = /(?:^|\/)gpt-(\d+)(?:\.(\d+))?/.exec(model ?? '');
  if (!match) return false;
  const major = Number(match[1]);
  return major > 5 || (major === 5 && Number(match[2] ?? 0) >= 6);
}

/** Chat: `messages`; Responses: `input` items. Returns a new body, or null when nothing is to be added. */
export function addOpenAiCacheBreakpoint(body: JsonObject, field: 'messages' | 'input', textType: 'text' | 'input_text'): JsonObject | null {
  const items: unknown = body[field];
  if (!Array.isArray(items) || hasKey(body, 'prompt_cache_breakpoint')) return null;
  const index = items.findIndex((item) => isPlainObject(item) && (item.role === 'system' || item.role === 'developer'));
  if (index < 0) return null;
  const message = items[index] as JsonObject;
  const content = message.content;
  let marked: unknown[];
  if (typeof content === 'string' && content !== '') marked = [{ type: textType, text: content, ...BREAKPOINT }];
  else if (Array.isArray(content) && content.length > 0 && isPlainObject(content[content.length - 1])) marked = withLastMarked(content, BREAKPOINT);
  else return null;
  const copy: unknown[] = [...(items as unknown[])];
  copy[index] = { ...message, content: marked };
  return { ...body, [field]: copy };
}
