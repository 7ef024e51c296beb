// Personal tokens: `atu-` + 43 base62 characters (256 random bits) + a 6-character
// base62 CRC32, the same layout as virtual keys, so a typo is refused without a
// lookup and secret scanners can recognise them. Stored only as SHA-256 hashes.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { encodeBase62, randomBase62 } from './base62.js';
import type { PersonalTokenRecord, StateData } from './schema.js';
import { StateRefusedError } from './state-errors.js';
import type { StateStore } from './state-store.js';

const PERSONAL_TOKEN_PREFIX = 'atu-';
const BODY_LENGTH = 43;
const WELL_FORMED = new RegExp(`^${PERSONAL_TOKEN_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + 6}}$`);

export type TokenStatus = 'active' | 'revoked' | 'expired';

function checksumOf(body: string): string {
  const value = crc32(body) >>> 0;
  return encodeBase62(new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]), 6);
}

export function generatePersonalToken(random: (size: number) => Uint8Array = randomBytes): string {
  const body = encodeBase62(random(32), BODY_LENGTH);
  return `${PERSONAL_TOKEN_PREFIX}${body}${checksumOf(body)}`;
}

export function isWellFormedPersonalToken(value: string): boolean {
  if (!WELL_FORMED.test(value)) return false;
  const body = value.slice(PERSONAL_TOKEN_PREFIX.length, PERSONAL_TOKEN_PREFIX.length + BODY_LENGTH);
  return value.endsWith(checksumOf(body));
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function tokenHint(token: string): string {
  const body = token.slice(PERSONAL_TOKEN_PREFIX.length);
  return `${PERSONAL_TOKEN_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export function tokenStatus(record: PersonalTokenRecord, now: Date): TokenStatus {
  if (record.revoked_at !== null) return 'revoked';
  return Date.parse(record.expires_at) <= now.getTime() ? 'expired' : 'active';
}

/** The in-update half of issuing a token (device login); the plaintext is returned once. */
export function addPersonalToken(
  draft: StateData,
  input: { person: string; device: PersonalTokenRecord['device']; now: Date },
): { record: PersonalTokenRecord; token: string } {
  const token = generatePersonalToken();
  const expires = new Date(input.now.getTime() + draft.settings.personal_token_days * 86_400_000);
  const record: PersonalTokenRecord = {
    id: newTokenId(draft), person: input.person, hash: hashSecret(token), hint: tokenHint(token),
    created_at: input.now.toISOString(), expires_at: expires.toISOString(), revoked_at: null, device: input.device,
  };
  draft.tokens.push(record);
  return { record, token };
}

/** Revokes by public id (tok_…) or by the token itself (what POST /oauth/revoke receives). */
export async function revokePersonalToken(store: StateStore, idOrToken: string): Promise<{ record: PersonalTokenRecord; changed: boolean }> {
  const hash = idOrToken.startsWith(PERSONAL_TOKEN_PREFIX) ? hashSecret(idOrToken) : null;
  return store.update((draft) => {
    const record = draft.tokens.find((candidate) => (hash === null ? candidate.id === idOrToken : candidate.hash === hash));
    if (!record) throw new StateRefusedError(hash === null ? `no token with id "${idOrToken}" (see gw tokens list)` : 'no such token');
    if (record.revoked_at !== null) return { record, changed: false };
    record.revoked_at = store.now().toISOString();
    return { record, changed: true };
  });
}

// Snapshots are frozen and replaced on change, so an index per snapshot never goes stale.
const indexes = new WeakMap<StateData, Map<string, PersonalTokenRecord>>();

/** The record for a presented token (by its hash), or null when malformed or unknown; check tokenStatus next. */
export function findTokenRecord(state: StateData, presented: string): PersonalTokenRecord | null {
  if (!isWellFormedPersonalToken(presented)) return null;
  let index = indexes.get(state);
  if (!index) {
    index = new Map(state.tokens.map((record) => [record.hash, record]));
    indexes.set(state, index);
  }
  return index.get(hashSecret(presented)) ?? null;
}

function newTokenId(draft: StateData): string {
  for (;;) {
    const id = `tok_${randomBase62(12)}`;
    if (!draft.tokens.some((record) => record.id === id)) return id;
  }
}
