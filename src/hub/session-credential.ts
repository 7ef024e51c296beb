// The one thing a sidecar receives from its hub (README, "Credentials from the hub"):
// `gws-<token id>.<expiry>.<HMAC-SHA256(hub secret)>`. It names the person's
// personal token, not the team, so it is usable only as that person; it lives at
// most an hour; and it is worth nothing by itself: the hub's door resolves it on
// every call against the current state (token active, person in a team), so a
// revocation or a removal refuses it within the state reload. Nothing is stored.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SESSION_CREDENTIAL_PREFIX } from '../auth/read-credentials.js';

/** The longest a session credential lives; a sidecar refreshes well before. */
export const SESSION_LIFETIME_MS = 3_600_000;

const SHAPE = /^gws-(tok_[0-9A-Za-z]{12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function sign(secret: Buffer, tokenId: string, expires: number): string {
  // A label of its own, so no other HMAC the hub makes (live keys) can be replayed as one.
  return createHmac('sha256', secret).update(`gw session credential\n${tokenId}\n${expires}`).digest('base64url');
}

export function issueSessionCredential(secret: Buffer, tokenId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${SESSION_CREDENTIAL_PREFIX}${tokenId}.${expires}.${sign(secret, tokenId, expires)}`;
}

/** The token id a credential stands for, or null when it is malformed, forged or expired. */
export function readSessionCredential(secret: Buffer, credential: string, now: Date): string | null {
  const match = SHAPE.exec(credential);
  if (!match) return null;
  const [, tokenId = '', expiresText = '', signature = ''] = match;
  const expires = Number(expiresText);
  const expected = Buffer.from(sign(secret, tokenId, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return expires * 1000 > now.getTime() ? tokenId : null;
}
