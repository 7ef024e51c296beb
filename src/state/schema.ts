// The shape of $GW_HOME/state.json. Secrets never appear here: virtual keys are
// stored as SHA-256 hashes (the keys are 256-bit random, so a plain hash is
// enough) with a short public id and a display hint. A provider's key may be
// stored as `env:NAME` (read from gw's environment at start) or, when the user
// insists, literally: the file is 0600 for that reason.
import type { StoredBudget, StoredDlpScope, StoredPolicy, StoredPrice, StoredRoute } from './governance-schema.js';
import type { AdminOutboxEntry, AdminTokenRecord, DeviceCodeRecord, LiveKeyRecord, Person, PersonalTokenRecord, RoleGroup } from './hub-schema.js';
import type { StoredMcpServer } from './mcp-servers.js';
import type { StoredClaudeSettings } from './claude-settings-schema.js';
import type { StoredGuardrail } from './guardrails.js';

export type { AdminOutboxEntry, AdminTokenRecord, DeviceCodeRecord, LiveKeyRecord, Person, PersonalTokenRecord } from './hub-schema.js';

export interface Team {
  name: string;
  created_at: string;
}

export interface VirtualKeyRecord {
  /** Public id, `vk_` + 12 base62 characters; safe to log and audit. */
  id: string;
  team: string;
  name: string | null;
  /** hex SHA-256 of the full key string. */
  hash: string;
  /** `sk-gw-AbCd…wxyz`: enough to recognise a key, useless to an attacker. */
  hint: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export type AuditFailurePolicy = 'block' | 'continue';
// The stored form of settings other layers own: state keeps its own shapes and imports no
// layer above it. The audit trail's AuditFsyncPolicy (audit/group-commit-writer.ts) accepts
// each value; gateway/ and cli/ hand one to the other, so a value added on one side only fails
// to compile there.
export type AuditFsyncSetting = 'always' | 'interval' | 'never';
export type UnscannedUploadPolicy = 'record' | 'refuse';
export type LimitsUnavailablePolicy = 'open' | 'closed';

/**
 * The adapter a stored provider names (providers/provider-adapter.ts's ProviderKind, which state
 * does not import): `gw providers add` turns a ProviderKind into one and config/ turns one back,
 * so a kind added on one side only fails to compile there.
 */
export type ProviderKindName = 'openai' | 'anthropic' | 'gemini' | 'azure' | 'openai-compatible' | 'gateway' | 'mock'
  | 'cohere' | 'jina' | 'voyage' | 'mistral' | 'bedrock' | 'foundry' | 'vertex';

export interface Settings {
  enforce_auth: boolean;
  /** Team whose identity serves credential-less requests when enforce_auth is off. */
  default_team: string | null;
  audit_failure: AuditFailurePolicy;
  audit_fsync: AuditFsyncSetting;
  /** Largest accepted request body, in bytes. */
  body_limit_bytes: number;
  /** Request-body bytes held in memory at once, all callers together (beyond: 503). */
  inflight_body_bytes: number;
  /** Request-body bytes held in memory at once for one credential (beyond: 429). */
  inflight_body_bytes_per_key: number;
  /** An upload DLP cannot read (audio, images, archives): recorded as unscanned, or refused. */
  unscanned_uploads: UnscannedUploadPolicy;
  /** With --redis: when Redis is unreachable, serve rate-limited calls unlimited (open) or refuse them (closed). */
  limits_when_redis_down: LimitsUnavailablePolicy;
  /** Socket addresses (IPs or CIDRs) whose X-Forwarded-For is believed. */
  trusted_proxies: string[];
  /** Seconds a refused origin's burst window lasts before its summary is written. */
  refused_burst_window_seconds: number;
  /** Hub: whether POST /oauth/device/code starts new device logins. */
  device_login: boolean;
  /** Hub: the URL people reach it at (verification_uri, OIDC redirect); null = from the request. */
  public_url: string | null;
  /** Hub: OpenID Connect issuer for approving device logins; null = the hub admin approves. */
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  /** `env:NAME`: the client secret is read from the hub's environment, never stored here. */
  oidc_client_secret: string | null;
  /** Hub: the issuer verifies every address it sends, so an email without `email_verified: true` counts too. */
  oidc_verifies_email: boolean;
  /** Hub: age after which a team's live key is replaced (the old one stays valid for an overlap). */
  live_key_rotation_seconds: number;
  /** Hub: lifetime of a personal atu- token. */
  personal_token_days: number;
  /** Hub: lifetime of the access token a gateway sign-in (Claude Code's /login) gets; a refresh grant renews it. */
  access_token_minutes: number;
  /** Bring your own key: honour x-gw-direct-key: true (the caller's Authorization is the provider key). */
  allow_direct_keys: boolean;
  /** Where signed audit checkpoints are also sent: an http(s) URL, an absolute file path (another volume), or null. */
  audit_witness: string | null;
  /** Where the trail streams as OCSF events (docs/audit-sink.md): an https:// URL (http:// only to a loopback host), an absolute file path, or null. */
  audit_sink: string | null;
  /** `env:NAME`: the variable in gw serve's environment holding the sink's Bearer token, never stored here; or null. */
  audit_sink_token: string | null;
  /** Undelivered trail bytes beyond which the sink's /health component turns failing (records are never dropped). */
  audit_sink_max_backlog_bytes: number;
  /** Hub: emails that may sign in to the console through the OIDC provider (lower case). */
  admin_emails: string[];
  /** Hub: a value of the OIDC `groups` claim whose members may sign in to the console; null = none. */
  admin_group: string | null;
  /** Hub: `GROUP=TEAM` pairs; an OIDC sign-in places the person in the team of the first group they have (added if new). */
  oidc_group_teams: string[];
  /** Hub: OIDC groups that give a console sign-in a narrower role (role-groups.ts). */
  role_groups: RoleGroup[];
}

/** A provider added with `gw providers add`; wins over the environment's provider of the same name. */
export interface ProviderRecord {
  name: string;
  kind: ProviderKindName;
  base_url: string;
  /** A literal key, `env:NAME` (resolved from gw's environment), or null for keyless servers. */
  api_key: string | null;
  /** The host base_url named when the key was set (bound-host.ts): the key goes nowhere else. */
  key_host?: string;
  api_version?: string;
  preset?: string;
  /** Well-known name prefixes this provider answers bare (`gpt-`, `o3`: `gw providers add --takes`). */
  takes?: string[];
}

export interface StateData {
  version: 1;
  teams: Team[];
  keys: VirtualKeyRecord[];
  settings: Settings;
  providers: ProviderRecord[];
  /** alias → `provider/model`. */
  aliases: Record<string, string>;
  /** Device login (src/hub): see hub-schema.ts. */
  people: Person[];
  tokens: PersonalTokenRecord[];
  device_codes: DeviceCodeRecord[];
  live_keys: LiveKeyRecord[];
  /** Policies, DLP scopes and routing rules (gw policy|dlp|routes): see governance-schema.ts. */
  policies: StoredPolicy[];
  dlp: StoredDlpScope[];
  routes: StoredRoute[];
  /** Credentials of the admin API and console (src/state/admin-tokens.ts); absent until the first is made. */
  admin_tokens?: AdminTokenRecord[];
  /** CLI changes waiting to be recorded in the audit trail by a running gw (src/state/admin-outbox.ts). */
  admin_outbox?: AdminOutboxEntry[];
  /** MCP servers aggregated at /mcp (gw mcp): see mcp-servers.ts. */
  mcp_servers: StoredMcpServer[];
  /** Spend (gw prices|budgets): local price overrides and budgets; absent in older files. */
  prices?: StoredPrice[];
  budgets?: StoredBudget[];
  /** Claude Code's managed settings per team or for everyone (gw claude-settings): see claude-settings.ts; absent until the first is set. */
  claude_settings?: StoredClaudeSettings[];
  /** External guardrails called before and after calls (gw guardrails): see guardrails.ts; absent until the first is added. */
  guardrails?: StoredGuardrail[];
}

export const DEFAULT_SETTINGS: Settings = {
  enforce_auth: false,
  default_team: null,
  audit_failure: 'block',
  unscanned_uploads: 'record',
  limits_when_redis_down: 'open',
  audit_fsync: 'interval',
  body_limit_bytes: 32 * 1024 * 1024,
  inflight_body_bytes: 512 * 1024 * 1024,
  inflight_body_bytes_per_key: 128 * 1024 * 1024,
  trusted_proxies: [],
  refused_burst_window_seconds: 60,
  device_login: true,
  public_url: null,
  oidc_issuer: null,
  oidc_client_id: null,
  oidc_client_secret: null,
  oidc_verifies_email: false,
  live_key_rotation_seconds: 86_400,
  personal_token_days: 30,
  access_token_minutes: 60,
  allow_direct_keys: false,
  audit_witness: null,
  audit_sink: null,
  audit_sink_token: null,
  audit_sink_max_backlog_bytes: 1024 * 1024 * 1024,
  admin_emails: [],
  admin_group: null,
  oidc_group_teams: [],
  role_groups: [],
};

export function emptyState(): StateData {
  return {
    version: 1, teams: [], keys: [], settings: { ...DEFAULT_SETTINGS }, providers: [], aliases: {},
    people: [], tokens: [], device_codes: [], live_keys: [],
    policies: [], dlp: [], routes: [],
    mcp_servers: [],
  };
}
