// Which prompt-cache marker, if any, a call gets on its way to a target (policy `cache_marker
// on`, docs/prompt-cache.md): Anthropic Messages get `cache_control` on their first cacheable
// block's end (add-cache-marker.ts); OpenAI Chat to GPT-5.6 and later a `prompt_cache_breakpoint`
// (add-cache-breakpoint.ts), Responses too (Codex). Applied where the body is encoded for the provider, same format or
// translated. With the setting off (the default) this is one look at the call's policies and
// the body is neither copied nor re-encoded; a same-format Anthropic body then stays the
// client's bytes. A marker added is a change to the client's request: the record's warnings say
// `cache_marker_added`.
import type { PolicyRecord } from '../../policy/policy-record.js';
import { isPlainObject } from '../../is-plain-object.js';
import type { PipelineRequest } from '../pipeline-types.js';
import { cacheMarkerOn } from '../../policy/cache-marker-on.js';
import { addAnthropicCacheMarker, addOpenAiCacheBreakpoint, takesCacheBreakpoint } from '../../formats/codec-registry.js';

type JsonObject = Record<string, unknown>;

/** A new body with the marker, or null when none is to be added (the client sent one, or nothing to mark). */
export type AddCacheMarker = (body: JsonObject) => JsonObject | null;

export const CACHE_MARKER_WARNING = 'cache_marker_added';

const markChat: AddCacheMarker = (body) => addOpenAiCacheBreakpoint(body, 'messages', 'text');
const markResponses: AddCacheMarker = (body) => addOpenAiCacheBreakpoint(body, 'input', 'input_text');

/** `operation` and `dialect` as the provider receives the call; `model` as the provider knows it. */
export function cacheMarkerFor(policies: readonly PolicyRecord[], operation: string, dialect: string, model: string | null): AddCacheMarker | null {
  if (!cacheMarkerOn(policies)) return null;
  if (dialect === 'anthropic' && operation === 'messages') return addAnthropicCacheMarker;
  if (dialect !== 'openai' || !takesCacheBreakpoint(model)) return null;
  if (operation === 'chat.completions') return markChat;
  if (operation === 'responses.create') return markResponses;
  return null;
}

/**
 * A Responses call (Codex's) goes out as a resource call, from the request's bytes: with a marker
 * added, the request carries the marked body and its bytes instead. The same request otherwise.
 */
export function withMarkedBody(request: PipelineRequest, mark: AddCacheMarker | null, onAdded: () => void): PipelineRequest {
  if (mark === null || !isPlainObject(request.body) || Buffer.isBuffer(request.body)) return request;
  const marked = mark(request.body);
  if (marked === null) return request;
  onAdded();
  return { ...request, body: marked, rawBody: Buffer.from(JSON.stringify(marked)) };
}
