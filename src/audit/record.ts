// The audit record schema (v 1). Flat snake_case fields; integers, strings,
// booleans and string arrays only (RFC 8785 forbids nothing here, but floats and
// `undefined` make canonical forms fragile, so we keep them out).
// Never a secret, never prompt or completion text.

export type AuditKind =
  | 'request'             // one per data-plane request that passed the door
  | 'telemetry'           // one per OTLP batch a client posted (POST /v1/traces|metrics|logs): counts, never a value
  | 'auth.refused'        // the first refusal of a burst from one origin, written at once
  | 'auth.refused_burst'  // the summary of an origin's refusals over one window
  | 'guard.refused'       // the first local-guard refusal (foreign Host, cross-origin) of a burst from one origin
  | 'guard.refused_burst' // the summary of an origin's local-guard refusals over one window
  | 'audit.recovered'     // a torn tail was repaired at start-up
  | 'audit.gap'           // records that could not be written (ENOSPC, EIO…), counted once writing works again
  | 'audit.chain_closed'  // gw audit rotate: the last record of a chain, naming the key of the next one (docs/audit-rotate.md)
  | 'audit.chain_opened'  // gw audit rotate: record 1 of the next chain, naming the closed chain's trail and head
  | 'gateway.start'
  | 'gateway.stop'
  | 'realtime.open'       // a realtime WebSocket session was proxied to its provider
  | 'realtime.close'      // …and ended: bytes and events each way, who closed it and how
  | 'login.token_issued'  // hub: a device login was redeemed for a personal token
  | 'login.token_revoked' // hub: a token was revoked at POST /oauth/revoke
  | 'login.code_replayed' // hub: a device_code was redeemed twice; the token it issued is revoked
  | 'login.exchange'      // hub: a sidecar exchanged its token for the team's live key (never the key itself)
  | 'login.key_rotated'   // hub: a team's live key was rotated
  | 'login.refreshed'     // hub: a gateway sign-in's refresh token was traded for a new access and refresh token
  | 'login.refresh_refused' // hub: a refresh was refused (sign-in revoked or expired, person removed)
  | 'login.refresh_reused' // hub: an already used refresh token came back; the whole sign-in is revoked
  | 'settings.delivered'  // hub: a person's Claude Code managed settings were served (GET /managed/settings)
  | 'admin.change'        // hub: an admin changed state through the admin API or console (who, what, which target; never a secret)
  | 'admin.refused'       // hub: an admin API call without a valid admin credential (or a console form from another site)
  | 'admin.sign_in';      // hub: someone signed in to the console (admin token or OIDC: who, and what let them in)

export interface AuditTokens {
  input?: number;
  output?: number;
  cached_read?: number;
  cache_write?: number;
  total?: number;
  /** Parts of the counts above (src/canonical/usage.ts): 1-hour cache writes, reasoning and audio. */
  cache_write_1h?: number;
  reasoning?: number;
  audio_input?: number;
  audio_output?: number;
  /** Image tokens among `input` (gpt-image-1's edits), priced above text. */
  image_input?: number;
  /**
   * Units that media calls are priced by instead of tokens (src/pipeline/routes/media-units.ts):
   * images made (images routes), seconds of audio heard (transcriptions, translations,
   * whole seconds rounded up) and characters spoken (speech). Absent when not known.
   */
  images?: number;
  audio_seconds?: number;
  characters?: number;
}

/**
 * What a request cost, from the price in force (src/spend): in nano-USD so the record keeps
 * integers only. `price: 'unknown'` (no amount) when no price is known, never a cost of 0.
 */
export type CostSource = 'usage' | 'usage_after_hangup' | 'hold' | 'estimate' | 'no_usage';

export interface AuditCost {
  nano_usd?: number;
  /** `hub`: a sidecar's call, at the cost the hub that served it priced (its x-gw-cost-usd). */
  price: 'dataset' | 'override' | 'hub' | 'unknown';
  /** The priced model as the price table names it (dataset id or override), when priced. */
  priced_as?: string;
  /** `batch`: a batch's usage, at the providers' batch price (half the interactive one). */
  discount?: 'batch';
  /**
   * The tokens priced are gw's estimate, not the provider's report: the call was cut (by the
   * client, the provider or a time-out) before its usage came, or its stream ended without any
   * (src/spend/estimate-cut-usage.ts, docs/budgets-cut-calls.md).
   */
  estimated?: true;
  /**
   * Where the priced figures came from (docs/spend.md): `usage`, the provider's own report read as
   * the answer passed; `usage_after_hangup`, the provider's report read after the client hung up
   * with its answer complete; `hold`, the call was cut before its usage came and is charged its
   * budget hold (its worst case), never less; `estimate`, gw's count of a call whose usage never
   * came in full (docs/budgets-cut-calls.md); `no_usage`, a model with no known price answered
   * without reporting usage (a stream without it): counted as unpriced, never as nothing. Absent in records written before it.
   */
  source?: CostSource;
  /**
   * What the provider's prompt cache saved on this call (src/spend/cache-savings.ts, docs/prompt-cache.md):
   * the call priced as if every cached and cache-written token were plain input, minus its cost.
   * Negative when cache writes cost more than the reads saved (a miss). Absent without cache tokens.
   */
  cache_saved_nano_usd?: number;
}

/**
 * A request record of the hub's own control plane (a sidecar pushing its audit checkpoint: operation
 * `hub.witness.push`): governed and recorded like any call, but not model usage, so usage reports
 * and spend leave it out.
 */
export function isControlPlaneCall(operation: string | undefined): boolean {
  return operation !== undefined && operation.startsWith('hub.');
}

/** What a caller hands to the writer; the writer adds v, seq, ts, prev and hash. */
export interface AuditFields {
  kind: AuditKind;
  request_id?: string;
  origin?: string;
  team?: string;
  key_id?: string;
  person?: string;
  route?: string;
  family?: string;
  operation?: string;
  /** The model asked of the provider; for a routing rule's call, the `provider/model` that served it (`rule` beside it). */
  model?: string;
  provider?: string;
  /** The routing rule (gw routes) the caller named as its model, when the call went through one. */
  rule?: string;
  status?: number;
  latency_ms?: number;
  bytes_in?: number;
  bytes_out?: number;
  tokens?: AuditTokens;
  /** Stable outcome codes, e.g. ["ok"], ["client_disconnected"], ["GW_ERR_AUTH_INVALID"]. */
  outcome?: string[];
  /** DLP rule ids and counts (never the matched text). */
  dlp?: Record<string, number>;
  warnings?: string[];
  /** Event-specific payload for non-request kinds (counts, times, paths, byte counts). */
  data?: Record<string, AuditValue>;
  /** Request records with usage: what the call cost (src/spend). */
  cost?: AuditCost;
  /**
   * Lineage (docs/sessions.md): the coding-agent session the call belongs to, from the client's
   * own header (x-claude-code-session-id, Codex's session-id, opencode's x-session-id) or
   * x-gw-session; and the client that made it, as name/version (`claude-code/2.1.197`).
   * Absent when the client sent none (and in records written before lineage).
   */
  session?: string;
  agent?: string;
}

export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };

/** One line of the trail as stored. */
export interface AuditRecord extends AuditFields {
  v: 1;
  seq: number;
  ts: string;
  prev: string;
  hash: string;
}

export const GENESIS_PREV = '0'.repeat(64);
