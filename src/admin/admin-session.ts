// Console sessions: after an admin pastes their admin token into /ui (or signs in through the
// hub's OIDC provider), the browser holds `gw_admin` = `<admin token id | oidc_…>.<expiry>.<HMAC>`
// (HttpOnly, SameSite=Strict), checked on
// every call against the current state, so a revoked admin token ends its sessions at
// once. Changes made with the cookie also need the x-gw-csrf header, which only the
// console's own script can read (from /admin/api/whoami) and a cross-site form cannot send.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'gw_admin';
export const SESSION_SECONDS = 8 * 3600;

function mac(secret: Buffer, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function issueSession(secret: Buffer, tokenId: string, now: number): string {
  const expires = Math.floor(now / 1000) + SESSION_SECONDS;
  return `${tokenId}.${expires}.${mac(secret, `gw admin session\n${tokenId}\n${expires}`)}`;
}

/** The admin token id a session cookie stands for, or null (forged, expired, malformed). */
export function readSession(secret: Buffer, cookie: string | undefined, now: number): string | null {
  const match = /^(adm_[0-9A-Za-z]{12}|oidc_[\w-]{1,600})\.(\d{1,12})\.([\w-]{43})$/.exec(cookie ?? '');
  if (!match) return null;
  const [, tokenId = '', expires = '', given = ''] = match;
  if (Number(expires) * 1000 <= now) return null;
  return same(given, mac(secret, `gw admin session\n${tokenId}\n${expires}`)) ? tokenId : null;
}

/**
 * An admin signed in through the hub's OIDC provider has no admin token: the session stands for
 * their email and what made them an admin (the admin_emails list, or membership of admin_group),
 * re-checked against the settings on every call, so taking them off the list ends the session.
 */
export interface OidcGrant {
  email: string;
  /** The admin_group value their groups claim carried at sign-in; null when admin_emails let them in. */
  group: string | null;
}

export function oidcSessionId(grant: OidcGrant): string {
  return `oidc_${Buffer.from(JSON.stringify([grant.email, grant.group])).toString('base64url')}`;
}

export function readOidcSessionId(id: string): OidcGrant | null {
  if (!id.startsWith('oidc_')) return null;
  try {
    const [email, group] = JSON.parse(Buffer.from(id.slice(5), 'base64url').toString('utf8')) as unknown[];
    return typeof email === 'string' && (group === null || typeof group === 'string') ? { email, group } : null;
  } catch {
    return null;
  }
}

/** The anti-CSRF value of one session: derived, so nothing is stored. */
export function csrfFor(secret: Buffer, session: string): string {
  return mac(secret, `gw admin csrf\n${session}`);
}

export function csrfMatches(secret: Buffer, session: string, given: string | undefined): boolean {
  return given !== undefined && same(given, csrfFor(secret, session));
}
