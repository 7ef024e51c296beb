// A short, stable name of an audit public key for people and for matching in a trust file.
import { hash } from 'node:crypto';

/** The first 16 hex digits of the SHA-256 of the key's base64url text. */
export function fingerprintOf(publicKey: string): string {
  return hash('sha256', publicKey, 'hex').slice(0, 16);
}
