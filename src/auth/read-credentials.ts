// Reads every place a credential can arrive, from the raw header list: Node keeps
// only the first of two Authorization headers and joins duplicate x-api-key values
// with ", ", so `request.headers` would hide an ambiguous request.
// The rules are the spec's Authentication table (docs/configuration.md, "Authentication: the spec's table").

export type CredentialPlace = 'x-gw-vk' | 'authorization' | 'x-api-key' | 'x-goog-api-key' | 'api-key';

export const CREDENTIAL_PLACES: readonly CredentialPlace[] = ['x-gw-vk', 'authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];

export const VIRTUAL_KEY_PREFIX = 'sk-gw-';
const PERSONAL_TOKEN_PREFIX = 'atu-';
/** A hub session credential (src/hub/session-credential.ts): what a sidecar sends its hub. */
export const SESSION_CREDENTIAL_PREFIX = 'gws-';

export interface PresentedCredential {
  place: CredentialPlace;
  kind: 'virtual-key' | 'personal-token' | 'hub-session';
  value: string;
}

export type CredentialReading =
  /** `foreign`: something was sent in a credential place, but no gw credential (a provider's key, a typo): the refusal says so. */
  | { outcome: 'none'; foreign?: true }
  | { outcome: 'found'; credential: PresentedCredential }
  | { outcome: 'ambiguous'; places: CredentialPlace[] }
  | { outcome: 'malformed'; place: CredentialPlace };

// Visible ASCII only: Node decodes raw UTF-8 header bytes as latin1, so anything
// else is mojibake that must never reach a lookup or a log.
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

function classify(place: CredentialPlace, raw: string): PresentedCredential | 'provider-key' | 'malformed' {
  let value = raw.trim();
  if (place === 'authorization') {
    const match = /^bearer\s+(\S+)$/i.exec(value);
    if (!match?.[1]) return 'provider-key';
    value = match[1];
  }
  if (!PRINTABLE_ASCII.test(value)) return place === 'x-gw-vk' || value.startsWith(VIRTUAL_KEY_PREFIX) ? 'malformed' : 'provider-key';
  if (value.startsWith(PERSONAL_TOKEN_PREFIX) && place !== 'x-gw-vk') return { place, kind: 'personal-token', value };
  if (value.startsWith(SESSION_CREDENTIAL_PREFIX)) return { place, kind: 'hub-session', value };
  // x-gw-vk is taken as it is; elsewhere only an sk-gw- value is ours, so a provider key is never taken for a virtual key.
  if (place === 'x-gw-vk' || value.startsWith(VIRTUAL_KEY_PREFIX)) return { place, kind: 'virtual-key', value };
  return 'provider-key';
}

/** The credential place a raw header name is (any case), or null: most names are ruled out by their length alone. */
function placeOf(name: string): CredentialPlace | null {
  const length = name.length;
  if (length !== 7 && length !== 9 && length !== 13 && length !== 14) return null;
  const lower = name.toLowerCase();
  for (const place of CREDENTIAL_PLACES) if (place === lower) return place;
  return null;
}

/**
 * Reads the gw credential of a request from its raw headers (name, value, name, value, …).
 * Nearly every request carries one credential header: that one is classified without the
 * maps and sets the rules for several need (readEveryCredential, the same answer).
 */
export function readCredentials(rawHeaders: readonly string[]): CredentialReading {
  let onlyPlace: CredentialPlace | null = null;
  let onlyValue = '';
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const place = placeOf(rawHeaders[index] ?? '');
    if (place === null) continue;
    if (onlyPlace !== null) return readEveryCredential(rawHeaders);
    onlyPlace = place;
    onlyValue = rawHeaders[index + 1] ?? '';
  }
  if (onlyPlace === null) return { outcome: 'none' };
  const result = classify(onlyPlace, onlyValue);
  if (result === 'malformed') return { outcome: 'malformed', place: onlyPlace };
  return result === 'provider-key' ? { outcome: 'none', foreign: true } : { outcome: 'found', credential: result };
}

/** The rules over every credential header a request carries: two different ones, or one sent twice, are ambiguous. */
export function readEveryCredential(rawHeaders: readonly string[]): CredentialReading {
  const found: PresentedCredential[] = [];
  const valuesByPlace = new Map<CredentialPlace, Set<string>>();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const place = placeOf(rawHeaders[index] ?? '');
    if (place === null) continue;
    const raw = rawHeaders[index + 1] ?? '';
    valuesByPlace.set(place, (valuesByPlace.get(place) ?? new Set()).add(raw));
    const result = classify(place, raw);
    if (result === 'malformed') return { outcome: 'malformed', place };
    if (result !== 'provider-key') found.push(result);
  }
  // Two different gw credentials, or a header that carries one sent twice with
  // different values: refuse rather than guess which the client meant (RFC 6750 §2).
  const distinctValues = new Set(found.map((credential) => credential.value));
  const repeated = found.filter((credential) => (valuesByPlace.get(credential.place)?.size ?? 0) > 1);
  if (distinctValues.size > 1 || repeated.length > 0) {
    return { outcome: 'ambiguous', places: [...new Set(found.map((credential) => credential.place))] };
  }
  const first = found[0];
  if (first) return { outcome: 'found', credential: first };
  return valuesByPlace.size > 0 ? { outcome: 'none', foreign: true } : { outcome: 'none' };
}
