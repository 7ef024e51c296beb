// The hub's part of state.json: people, their personal tokens, device-login
// codes and each team's live key. Like virtual keys, every secret is stored only
// as a SHA-256 hash (tokens and device codes are 256-bit random); a live key is
// stored as the salt it is derived from with the hub secret ($GW_HOME/hub.key),
// so this file alone holds no usable credential.

export interface Person {
  /** Lowercased email: the identity a device login approves and audit records name. */
  email: string;
  team: string;
  created_at: string;
}

export interface PersonalTokenRecord {
  /** Public id, `tok_` + 12 base62 characters; safe to log, audit and list. */
  id: string;
  person: string;
  /** hex SHA-256 of the whole `atu-…` token. */
  hash: string;
  /** `atu-AbCd…wxyz`. */
  hint: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** Where the login came from (shown in `gw tokens list`). */
  device: { ip: string; user_agent: string; client_host: string | null };
  /**
   * A gateway sign-in (Claude Code's own /login): its `atu-` token is never handed out; the
   * person gets short access tokens and a refresh token of this generation. Each refresh
   * moves it up one; an older one presented again revokes the sign-in (a reused refresh token).
   */
  refresh_generation?: number;
}

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'used';

export interface DeviceCodeRecord {
  id: string;
  /** hex SHA-256 of the device_code (RFC 8628 §3.2: never shown to a person). */
  device_code_hash: string;
  /** 8 characters of the base-20 alphabet, stored without the dash. */
  user_code: string;
  status: DeviceCodeStatus;
  /** RFC 8628 §5.4: what the verification page shows, so a phished code is easy to spot. */
  requester: { ip: string; user_agent: string; client_host: string | null };
  created_at: string;
  expires_at: string;
  /** The email typed on the verification page, awaiting the admin's `gw device approve`. */
  claimed_email: string | null;
  /** Set on approval: the person the token is issued to. */
  person: string | null;
  approved_at: string | null;
  /** `cli` or `oidc:<issuer>`. */
  approved_by: string | null;
  /** Set on denial: `verification_page`, `cli` (gw device deny on the hub's machine) or `admin:<name>` (the admin API); absent on older records. */
  denied_by?: string | null;
  /** The token issued for this code, revoked again if the code is replayed. */
  token_id: string | null;
  /** Started at the gateway protocol's endpoint (Claude Code's /login): redeemed as a gateway sign-in with a refresh token. */
  gateway?: boolean;
}

export interface LiveKeyRecord {
  team: string;
  /** The virtual key (in `keys`) whose hash is that of the derived key. */
  key_id: string;
  /** Random; the key is HMAC-SHA256(hub secret, "gw live key\n" + team + "\n" + salt). */
  salt: string;
  created_at: string;
  /** When a newer live key replaced it; it stays valid until its key's expires_at (the overlap). */
  superseded_at: string | null;
}

/** A credential of the admin API and console (src/state/admin-tokens.ts). */
export interface AdminTokenRecord {
  /** Public id, `adm_` + 12 base62 characters: what audit records name. */
  id: string;
  /** Who holds it (a person's email or a label such as `ci`). */
  name: string;
  /** hex SHA-256 of the whole token. */
  hash: string;
  hint: string;
  created_at: string;
  /** Who made it: `cli:<user>@<host>` or the admin token id that made it over the API. */
  created_by: string;
  revoked_at: string | null;
  /** What it may do (docs/console.md, Roles); absent on tokens made before roles: admin. */
  role?: AdminRole;
  /** A team_admin's teams: what it may change. */
  teams?: string[];
}

/** admin: everything; team_admin: their teams' people, keys, budgets and policies; viewer: read-only. */
export type AdminRole = 'admin' | 'team_admin' | 'viewer';
export const ADMIN_ROLES: readonly AdminRole[] = ['admin', 'team_admin', 'viewer'];

/** An OIDC group that gives its members a console role (the setting role_groups, role-groups.ts). */
export interface RoleGroup {
  group: string;
  role: 'team_admin' | 'viewer';
  /** A team_admin group's teams; empty for a viewer group. */
  teams: string[];
}

/** A CLI change waiting to become an `admin.change` audit record (src/state/admin-outbox.ts). */
export interface AdminOutboxEntry {
  id: string;
  at: string;
  actor: string;
  /** `keys create`, `people remove`… */
  command: string;
  /** Per part of the state: the ids or names added, removed or changed (never a secret). */
  changes: Record<string, { added?: string[]; removed?: string[]; changed?: string[] }>;
  /** A gw moving this entry into its trail, and since when (another takes over after a minute). */
  claimed_by?: string;
  claimed_at?: string;
}
