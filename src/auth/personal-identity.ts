// A person's credentials at the door (spec, Authentication: personal tokens): an
// atu- token, or (at a hub) the gws- session credential its sidecar holds. The door
// asks a PersonalIdentity, which the hub and the sidecar implement differently:
// the hub resolves token → person → team against its state on every call; a
// sidecar knows only its own logged-in person.
import type { Identity, RefusalReason } from './authenticate.js';
import { CREDENTIAL_PLACES } from './read-credentials.js';

export type TokenResolution =
  | { ok: true; identity: Identity }
  | { ok: false; reason: RefusalReason };

export interface PersonalIdentity {
  /** An atu- token → the identity it stands for. */
  resolveToken(token: string): Promise<TokenResolution>;
  /** Hub: a gws- session credential → its person's identity (refused once the token or the person is gone). */
  resolveSession?(credential: string): Promise<TokenResolution>;
  /** Sidecar: who a credential-less local call is served as. */
  defaultIdentity?(): Identity | null;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * Removes a person's credential from every credential place, in the parsed headers
 * and the raw list, so nothing after the door (upstream headers, logs) can see it.
 */
export function removeCredential(headers: Headers, rawHeaders: string[], credential: string): void {
  const carries = (value: string) => value.includes(credential);
  for (const place of CREDENTIAL_PLACES) {
    const value = headers[place];
    if (value !== undefined && (Array.isArray(value) ? value.some(carries) : carries(value))) delete headers[place];
  }
  for (let index = rawHeaders.length - 2; index >= 0; index -= 2) {
    if (carries(rawHeaders[index + 1] ?? '')) rawHeaders.splice(index, 2);
  }
}
