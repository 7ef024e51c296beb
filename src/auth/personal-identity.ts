// Personal atu- tokens at the door (spec, Authentication: personal tokens). The
// door asks a PersonalIdentity, which the hub and the sidecar implement
// differently: the hub resolves person → team → the team's live key; a sidecar
// knows only its own logged-in person.
import type { Identity, RefusalReason } from './authenticate.js';
import { CREDENTIAL_PLACES } from './read-credentials.js';

export type TokenResolution =
  | { ok: true; identity: Identity; liveKey: string | null }
  | { ok: false; reason: RefusalReason };

export interface PersonalIdentity {
  /** An atu- token → the identity it stands for, and (hub) the team's live key for x-gw-vk. */
  resolveToken(token: string): Promise<TokenResolution>;
  /** Hub: the person an x-gw-on-behalf-of proof vouches for on a live-key request, or null when it is not valid. */
  resolveProof?(proof: string, identity: Identity): string | null;
  /** Sidecar: who a credential-less local call is served as. */
  defaultIdentity?(): Identity | null;
  /** Hub: headers telling a sidecar its live key was rotated. */
  responseHeaders?(identity: Identity): Record<string, string>;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * Removes the token from every credential place, in the parsed headers and the raw
 * list, so nothing after the door (upstream headers, logs) can see it; then puts
 * the live key in x-gw-vk when there is one.
 */
export function replaceTokenWithLiveKey(headers: Headers, rawHeaders: string[], token: string, liveKey: string | null): void {
  const carries = (value: string) => value.includes(token);
  for (const place of CREDENTIAL_PLACES) {
    const value = headers[place];
    if (value !== undefined && (Array.isArray(value) ? value.some(carries) : carries(value))) delete headers[place];
  }
  for (let index = rawHeaders.length - 2; index >= 0; index -= 2) {
    if (carries(rawHeaders[index + 1] ?? '')) rawHeaders.splice(index, 2);
  }
  if (liveKey !== null) headers['x-gw-vk'] = liveKey;
}
