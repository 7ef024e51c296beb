// A policy as state.json holds it. `scope` is `*` (every request, limits shared
// by all), `team:NAME` or `key:vk_…`. Every record whose scope matches a request
// applies: a request passes only when each one allows it.

export interface PolicyRecord {
  scope: string;
  /** enforce: refuse; shadow: evaluate and record what would have been refused, serve anyway. */
  mode?: 'enforce' | 'shadow';
  allow_models?: string[];
  deny_models?: string[];
  allow_providers?: string[];
  deny_providers?: string[];
  allow_operations?: string[];
  deny_operations?: string[];
  /** Largest max_tokens (max_output_tokens, maxOutputTokens…) a request may ask for. */
  max_tokens?: number;
  requests_per_minute?: number;
  tokens_per_minute?: number;
  /** MCP (/mcp): globs over namespaced tool names (`server__tool`) and over server names. */
  allow_tools?: string[];
  deny_tools?: string[];
  allow_mcp_servers?: string[];
  deny_mcp_servers?: string[];
  /** MCP resources by `server__URI` (the server's own URI) and prompts by `server__prompt`. */
  allow_resources?: string[];
  deny_resources?: string[];
  allow_prompts?: string[];
  deny_prompts?: string[];
  /**
   * Prompt cache (docs/prompt-cache.md): `on` adds a cache marker to calls whose client sent none
   * (a cost decision: off unless set). Unlike the rules above, the most specific scope decides
   * (key, then team, then *), so a team can turn on what a key turns off.
   */
  cache_marker?: 'on' | 'off';
}

/** `*`, `team:NAME` or `key:vk_…`. */
export function isPolicyScope(scope: string): boolean {
  return scope === '*' || /^team:[^\s:]+$/.test(scope) || /^key:vk_[0-9A-Za-z]+$/.test(scope);
}

export function policiesFor(records: readonly PolicyRecord[], team: string, keyId: string | null): PolicyRecord[] {
  const scopes = new Set(['*', `team:${team}`, ...(keyId ? [`key:${keyId}`] : [])]);
  return records.filter((record) => scopes.has(record.scope));
}
