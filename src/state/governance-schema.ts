// The governance part of state.json as stored: policies, DLP scopes and routing
// rules. State owns these shapes so it imports none of policy/, dlp/ or routing/;
// those pure folders declare the shapes they accept, and the compiler checks the
// two agree where the pipeline hands a snapshot to them and where the CLI writes
// their records back (pipeline/govern/govern-request.ts, cli/commands/policy|dlp|routes.ts).

/** `*` (every request), `team:NAME` or `key:vk_…`. */
type StoredScope = string;

export interface StoredPolicy {
  scope: StoredScope;
  mode?: 'enforce' | 'shadow';
  allow_models?: string[];
  deny_models?: string[];
  allow_providers?: string[];
  deny_providers?: string[];
  allow_operations?: string[];
  deny_operations?: string[];
  max_tokens?: number;
  requests_per_minute?: number;
  tokens_per_minute?: number;
  /** MCP (/mcp): globs over namespaced tool names (`server__tool`) and over server names. */
  allow_tools?: string[];
  deny_tools?: string[];
  allow_mcp_servers?: string[];
  deny_mcp_servers?: string[];
  /** MCP resources by `server__URI` and prompts by `server__prompt` (globs). */
  allow_resources?: string[];
  deny_resources?: string[];
  allow_prompts?: string[];
  deny_prompts?: string[];
  /** Prompt cache (docs/prompt-cache.md): add a cache marker where the client sent none; the most specific scope decides. */
  cache_marker?: 'on' | 'off';
}

export type StoredDlpAction = 'block' | 'redact' | 'log';

export interface StoredDlpRule {
  id: string;
  /** RE2 syntax; compiled (and a bad one reported) by the server, not here. */
  pattern: string;
  action: StoredDlpAction;
  case_insensitive?: boolean;
}

export interface StoredDlpScope {
  scope: StoredScope;
  /** rule id → action, or off. */
  actions?: Record<string, StoredDlpAction | 'off'>;
  custom?: StoredDlpRule[];
  output_scan?: boolean;
}

export interface StoredRouteTarget {
  /** `provider/model`. */
  model: string;
  weight: number;
  /** `env:NAME` or a literal provider key. */
  key?: string;
  /** The host the target's provider named when the key was set (bound-host.ts): the key goes nowhere else. */
  key_host?: string;
  timeout_ms?: number;
}

export interface StoredRoute {
  name: string;
  targets: StoredRouteTarget[];
  retries?: number;
  fallback?: boolean;
}

/**
 * `gw prices set`: a local price for a provider's model; wins over the dataset. Token prices are
 * USD per million tokens under the dataset's own keys; media calls are priced per unit instead
 * (src/spend/unit-prices.ts). A price has the two token prices, or at least one unit price.
 */
export interface StoredPrice {
  /** gw's provider name (the `provider` of `provider/model`). */
  provider: string;
  model: string;
  input_mtok?: number;
  output_mtok?: number;
  cache_read_mtok?: number;
  cache_write_mtok?: number;
  cache_write_1h_mtok?: number;
  input_audio_mtok?: number;
  output_audio_mtok?: number;
  /** USD per image made, whatever its size and quality. */
  per_image?: number;
  /** USD per image of one size and/or quality, keyed `1024x1792`, `hd` or `1024x1792/hd`; the most specific wins over per_image. */
  per_image_variants?: Record<string, number>;
  /** USD per minute of audio transcribed or translated. */
  per_audio_minute?: number;
  /** USD per million characters of speech (text-to-speech input). */
  per_million_characters?: number;
}

/** `gw budgets set`: an amount per calendar period for one key, team or person. */
export interface StoredBudget {
  /** `key:vk_…`, `team:NAME` or `person:EMAIL`. */
  scope: string;
  amount_usd: number;
  period: 'day' | 'week' | 'month';
  /** IANA time zone the period is aligned to (default UTC). */
  time_zone?: string;
  mode: 'hard' | 'soft';
}
