// The shape of $GW_HOME/state.json. Secrets never appear here: virtual keys are
// stored as SHA-256 hashes (the keys are 256-bit random, so a plain hash is
// enough) with a short public id and a display hint. A provider's key may be
// stored as `env:NAME` (read from gw's environment at start) or, when the user
// insists, literally: the file is 0600 for that reason.
import type { ProviderKind } from '../providers/provider-adapter.js';

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
export type AuditFsyncPolicy = 'always' | 'interval' | 'never';

export interface Settings {
  enforce_auth: boolean;
  /** Team whose identity serves credential-less requests when enforce_auth is off. */
  default_team: string | null;
  audit_failure: AuditFailurePolicy;
  audit_fsync: AuditFsyncPolicy;
  /** Largest accepted request body, in bytes. */
  body_limit_bytes: number;
  /** Socket addresses (IPs or CIDRs) whose X-Forwarded-For is believed. */
  trusted_proxies: string[];
  /** Seconds a refused origin's burst window lasts before its summary is written. */
  refused_burst_window_seconds: number;
}

/** A provider added with `gw providers add`; wins over the environment's provider of the same name. */
export interface ProviderRecord {
  name: string;
  kind: ProviderKind;
  base_url: string;
  /** A literal key, `env:NAME` (resolved from gw's environment), or null for keyless servers. */
  api_key: string | null;
  api_version?: string;
  preset?: string;
}

export interface StateData {
  version: 1;
  teams: Team[];
  keys: VirtualKeyRecord[];
  settings: Settings;
  providers: ProviderRecord[];
  /** alias → `provider/model`. */
  aliases: Record<string, string>;
}

export const DEFAULT_SETTINGS: Settings = {
  enforce_auth: false,
  default_team: null,
  audit_failure: 'block',
  audit_fsync: 'always',
  body_limit_bytes: 32 * 1024 * 1024,
  trusted_proxies: [],
  refused_burst_window_seconds: 60,
};

export function emptyState(): StateData {
  return { version: 1, teams: [], keys: [], settings: { ...DEFAULT_SETTINGS }, providers: [], aliases: {} };
}
