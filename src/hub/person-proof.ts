// The person a sidecar serves, as the hub vouches for it: the sidecar holds only
// the team's live key, so to let the hub's audit name the person it sends
// `x-gw-on-behalf-of: <token id>.<expiry>.<HMAC>`, issued at token exchange and
// signed with the hub secret. The hub checks the signature, the expiry and that
// the token is still active; a forged or stale proof is refused like a bad key.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const PERSON_PROOF_HEADER = 'x-gw-on-behalf-of';

function sign(secret: Buffer, tokenId: string, expires: number): string {
  return createHmac('sha256', secret).update(`gw person proof\n${tokenId}\n${expires}`).digest('base64url');
}

export function issuePersonProof(secret: Buffer, tokenId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${tokenId}.${expires}.${sign(secret, tokenId, expires)}`;
}

/** The token id the proof vouches for, or null when it is malformed, forged or expired. */
export function readPersonProof(secret: Buffer, proof: string, now: Date): string | null {
  const match = /^(tok_[0-9A-Za-z]{12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(proof);
  if (!match) return null;
  const [, tokenId = '', expiresText = '', signature = ''] = match;
  const expires = Number(expiresText);
  const expected = Buffer.from(sign(secret, tokenId, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return expires * 1000 > now.getTime() ? tokenId : null;
}
