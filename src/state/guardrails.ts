// External guardrails gw calls (`gw guardrails add|list|remove`), as state.json holds them:
// a service a team already runs (its own HTTP one, Presidio, OpenAI moderation, Lakera Guard,
// Bedrock Guardrails) that judges the texts of a request before it leaves, of an answer before
// the client gets it, or both. Like a provider key, the credential is `env:NAME` (read from gw's
// environment when called) or a literal given remotely; never logged or shown.

export const GUARDRAIL_KINDS = ['http', 'presidio', 'openai-moderation', 'lakera', 'bedrock'] as const;
export type GuardrailKindName = typeof GUARDRAIL_KINDS[number];
export type GuardrailWhen = 'pre' | 'post' | 'both';

export interface StoredGuardrail {
  /** Lower-case letters, digits and single hyphens: what the trail and /metrics call it. */
  name: string;
  kind: GuardrailKindName;
  url: string;
  /** `*` (every call), `team:NAME` or `key:vk_…`. */
  scope: string;
  when: GuardrailWhen;
  timeout_ms: number;
  /** What a timeout, a failure or an unreadable answer means: let the call through, or refuse it. */
  on_error: 'open' | 'closed';
  /** `env:NAME` or a literal; absent for a guardrail that needs none. */
  credential?: string;
  /** The host `url` named when the credential was set (bound-host.ts): it goes nowhere else. */
  credential_host?: string;
  /** Kind-specific settings: Bedrock's guardrail id, version and region; Presidio's anonymizer URL and language. */
  options?: Record<string, string>;
  created_at: string;
}

export const GUARDRAIL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SCOPE = /^(?:\*|team:[^\s:]+|key:vk_[0-9A-Za-z]+)$/;

type Json = Record<string, unknown>;

/** state.json's `guardrails`: the list, or a message naming the first bad entry. */
export function readGuardrails(value: unknown): StoredGuardrail[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'guardrails is not a list';
  const guardrails: StoredGuardrail[] = [];
  for (const [index, item] of value.entries()) {
    const read = readGuardrail(item);
    if (typeof read === 'string') return `guardrails[${index}] ${read}`;
    guardrails.push(read);
  }
  return guardrails;
}

function readGuardrail(item: unknown): StoredGuardrail | string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'is not an object';
  const entry: Json = { ...item };
  const { name, kind, url, scope, when, timeout_ms: timeoutMs, on_error: onError, credential, credential_host: credentialHost, options, created_at: createdAt } = entry;
  if (typeof name !== 'string' || !GUARDRAIL_NAME.test(name)) return 'has no valid name (lower-case letters, digits, single hyphens)';
  const knownKind = GUARDRAIL_KINDS.find((candidate) => candidate === kind);
  if (knownKind === undefined) return `kind is not one of ${GUARDRAIL_KINDS.join(', ')}`;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return 'has no http(s) url';
  if (typeof scope !== 'string' || !SCOPE.test(scope)) return 'has no valid scope (*, team:NAME or key:vk_…)';
  if (when !== 'pre' && when !== 'post' && when !== 'both') return 'when is not pre, post or both';
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs <= 0) return 'timeout_ms is not a positive whole number';
  if (onError !== 'open' && onError !== 'closed') return 'on_error is not open or closed';
  if (credential !== undefined && typeof credential !== 'string') return 'credential is not a string';
  if (credentialHost !== undefined && typeof credentialHost !== 'string') return 'credential_host is not a string';
  const readOptions = readStringMap(options);
  if (readOptions === null) return 'options is not a map of strings';
  return {
    name, kind: knownKind, url, scope, when, timeout_ms: timeoutMs, on_error: onError, created_at: typeof createdAt === 'string' ? createdAt : '',
    ...(credential === undefined ? {} : { credential }), ...(credentialHost === undefined ? {} : { credential_host: credentialHost }),
    ...(readOptions === undefined ? {} : { options: readOptions }),
  };
}

function readStringMap(value: unknown): Record<string, string> | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const map: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') return null;
    map[key] = entry;
  }
  return map;
}
