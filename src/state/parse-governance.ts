// state.json's `policies`, `dlp` and `routes` at the file boundary: checked by
// shape (a hand edit with a typo is reported by name, not served half-read).
// Admin DLP patterns are compiled by the server, which reports a bad one.
import type { StoredBudget, StoredDlpScope, StoredPolicy, StoredPrice, StoredRoute } from './governance-schema.js';
import { isPlainObject as isObject } from '../is-plain-object.js';

type Json = Record<string, unknown>;

const ACTIONS = new Set(['block', 'redact', 'log', 'off']);
const SCOPE = /^(?:\*|team:[^\s:]+|key:vk_[0-9A-Za-z]+)$/;

export interface Governance {
  policies: StoredPolicy[];
  dlp: StoredDlpScope[];
  routes: StoredRoute[];
  prices?: StoredPrice[];
  budgets?: StoredBudget[];
}

export function readGovernance(raw: Json): Governance | string {
  const policies = readList<StoredPolicy>(raw.policies, 'policies', readPolicy);
  if (typeof policies === 'string') return policies;
  const dlp = readList<StoredDlpScope>(raw.dlp, 'dlp', readDlpScope);
  if (typeof dlp === 'string') return dlp;
  const routes = readList<StoredRoute>(raw.routes, 'routes', readRoute);
  if (typeof routes === 'string') return routes;
  const prices = readList<StoredPrice>(raw.prices, 'prices', readPrice);
  if (typeof prices === 'string') return prices;
  const budgets = readList<StoredBudget>(raw.budgets, 'budgets', readBudget);
  if (typeof budgets === 'string') return budgets;
  return { policies, dlp, routes, ...(raw.prices !== undefined ? { prices } : {}), ...(raw.budgets !== undefined ? { budgets } : {}) };
}

function readList<T>(value: unknown, field: string, read: (item: Json) => string | null): T[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return `${field} is not a list`;
  for (const [index, item] of value.entries()) {
    const problem = isObject(item) ? read(item) : 'is not an object';
    if (problem !== null) return `${field}[${index}] ${problem}`;
  }
  return value as T[];
}

function readPolicy(item: Json): string | null {
  if (typeof item.scope !== 'string' || !SCOPE.test(item.scope)) return 'has no valid scope (*, team:NAME or key:vk_…)';
  if (item.mode !== undefined && item.mode !== 'enforce' && item.mode !== 'shadow') return 'mode is not enforce or shadow';
  for (const field of ['allow_models', 'deny_models', 'allow_providers', 'deny_providers', 'allow_operations', 'deny_operations', 'allow_tools', 'deny_tools', 'allow_mcp_servers', 'deny_mcp_servers',
    'allow_resources', 'deny_resources', 'allow_prompts', 'deny_prompts']) {
    if (item[field] !== undefined && !isStringList(item[field])) return `${field} is not a list of strings`;
  }
  for (const field of ['max_tokens', 'requests_per_minute', 'tokens_per_minute']) {
    if (item[field] !== undefined && !isPositiveInteger(item[field])) return `${field} is not a positive whole number`;
  }
  if (item.cache_marker !== undefined && item.cache_marker !== 'on' && item.cache_marker !== 'off') return 'cache_marker is not on or off';
  return null;
}

function readDlpScope(item: Json): string | null {
  if (typeof item.scope !== 'string' || !SCOPE.test(item.scope)) return 'has no valid scope (*, team:NAME or key:vk_…)';
  if (item.actions !== undefined) {
    if (!isObject(item.actions)) return 'actions is not an object';
    const bad = Object.entries(item.actions).find(([, action]) => typeof action !== 'string' || !ACTIONS.has(action));
    if (bad) return `actions.${bad[0]} is not block, redact, log or off`;
  }
  if (item.output_scan !== undefined && typeof item.output_scan !== 'boolean') return 'output_scan is not true or false';
  if (item.custom === undefined) return null;
  if (!Array.isArray(item.custom)) return 'custom is not a list';
  for (const [index, rule] of item.custom.entries()) {
    if (!isObject(rule) || typeof rule.id !== 'string' || typeof rule.pattern !== 'string' || typeof rule.action !== 'string' || !ACTIONS.has(rule.action) || rule.action === 'off') {
      return `custom[${index}] needs id, pattern and action (block, redact or log)`;
    }
  }
  return null;
}

function readRoute(item: Json): string | null {
  if (typeof item.name !== 'string' || item.name === '') return 'has no name';
  if (!Array.isArray(item.targets) || item.targets.length === 0) return 'has no targets';
  for (const [index, target] of item.targets.entries()) {
    if (!isObject(target) || typeof target.model !== 'string' || !/^[^/]+\/.+$/.test(target.model)) return `targets[${index}] has no model "provider/model"`;
    if (typeof target.weight !== 'number' || !(target.weight >= 0)) return `targets[${index}] weight is not a number ≥ 0`;
    if (target.key !== undefined && typeof target.key !== 'string') return `targets[${index}] key is not a string`;
    if (target.key_host !== undefined && typeof target.key_host !== 'string') return `targets[${index}] key_host is not a string`;
    if (target.timeout_ms !== undefined && !isPositiveInteger(target.timeout_ms)) return `targets[${index}] timeout_ms is not a positive whole number`;
  }
  if (item.retries !== undefined && !(Number.isInteger(item.retries) && (item.retries as number) >= 0)) return 'retries is not a whole number ≥ 0';
  if (item.fallback !== undefined && typeof item.fallback !== 'boolean') return 'fallback is not true or false';
  return null;
}

const PRICE_FIELDS = ['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok', 'cache_write_1h_mtok', 'input_audio_mtok', 'output_audio_mtok', 'per_image', 'per_audio_minute', 'per_million_characters'];
/** src/spend/unit-prices.ts's UNIT_PRICE_FIELDS, spelled again here: state imports nothing from spend. */
const UNIT_FIELDS = ['per_image', 'per_image_variants', 'per_audio_minute', 'per_million_characters'];

function readPrice(item: Json): string | null {
  if (typeof item.provider !== 'string' || item.provider === '' || typeof item.model !== 'string' || item.model === '') return 'needs provider and model';
  // A media model may be priced per unit only (an image, a minute of audio); otherwise both token prices are needed.
  const perUnit = UNIT_FIELDS.some((field) => item[field] !== undefined);
  for (const field of PRICE_FIELDS) {
    const required = !perUnit && (field === 'input_mtok' || field === 'output_mtok');
    if ((required || item[field] !== undefined) && !isPrice(item[field])) return `${field} is not a number ≥ 0`;
  }
  const variants = item.per_image_variants;
  if (variants !== undefined && !(isObject(variants) && Object.values(variants).every(isPrice))) return 'per_image_variants is not an object of numbers ≥ 0';
  return null;
}

function isPrice(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function readBudget(item: Json): string | null {
  if (typeof item.scope !== 'string' || !/^(?:team:[^\s:]+|key:vk_[0-9A-Za-z]+|person:\S+)$/.test(item.scope)) return 'has no valid scope (team:NAME, key:vk_… or person:EMAIL)';
  if (!(typeof item.amount_usd === 'number' && Number.isFinite(item.amount_usd) && item.amount_usd > 0)) return 'amount_usd is not a number > 0';
  if (item.period !== 'day' && item.period !== 'week' && item.period !== 'month') return 'period is not day, week or month';
  if (item.mode !== 'hard' && item.mode !== 'soft') return 'mode is not hard or soft';
  if (item.time_zone !== undefined && typeof item.time_zone !== 'string') return 'time_zone is not a string';
  return null;
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

function isPositiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
