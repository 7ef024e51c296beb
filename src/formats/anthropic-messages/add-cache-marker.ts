// The prompt-cache marker gw adds to an Anthropic Messages body whose client sent none (policy
// `cache_marker on`, docs/prompt-cache.md). Anthropic caches the prompt prefix up to a block
// marked `cache_control: {type: "ephemeral"}`, in the order tools, system, messages; at most
// four markers per request; a prefix shorter than the model's minimum is simply not cached.
// (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching)
// gw marks the end of the stable part every turn repeats: the last system block (which caches
// the tools too), or the last tool when there is no system prompt. Any marker the client sent
// wins: then nothing is added. Returns a new body, or null when nothing is to be added.
import { isPlainObject } from '../../is-plain-object.js';
import { hasKey, withLastMarked } from '../shared/cache-marker-parts.js';

type JsonObject = Record<string, unknown>;

const EPHEMERAL = { type: 'ephemeral' } as const;

export function addAnthropicCacheMarker(body: JsonObject): JsonObject | null {
  if (hasKey(body, 'cache_control')) return null;
  const system = body.system;
  if (typeof system === 'string' && system !== '') return { ...body, system: [{ type: 'text', text: system, cache_control: EPHEMERAL }] };
  if (Array.isArray(system) && system.length > 0 && isPlainObject(system[system.length - 1])) {
    return { ...body, system: withLastMarked(system, { cache_control: EPHEMERAL }) };
  }
  const tools = body.tools;
  if (Array.isArray(tools) && tools.length > 0 && isPlainObject(tools[tools.length - 1])) {
    return { ...body, tools: withLastMarked(tools, { cache_control: EPHEMERAL }) };
  }
  return null;
}
