// Admin tokens: `gwa-` + 43 base62 characters (256 random bits), the credential of the
// admin API (/admin/api) and console (/ui), apart from every inference credential. Made
// with `gw admin tokens create` on the hub (or by another admin over the API), shown
// once, stored only as a SHA-256 hash.
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './base62.js';
import type { AdminTokenRecord, StateData } from './schema.js';

export type { AdminTokenRecord };
import { StateInputError, StateRefusedError } from './state-errors.js';

const ADMIN_TOKEN_PREFIX = 'gwa-';
const WELL_FORMED = /^gwa-[0-9A-Za-z]{43}$/;


function hashAdminToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function isWellFormedAdminToken(value: string): boolean {
  return WELL_FORMED.test(value);
}

export function adminTokensOf(state: StateData): readonly AdminTokenRecord[] {
  return state.admin_tokens ?? [];
}

/** The active token this plaintext is, or null (unknown, revoked or malformed). */
export function findAdminToken(state: StateData, token: string): AdminTokenRecord | null {
  if (!isWellFormedAdminToken(token)) return null;
  const hash = Buffer.from(hashAdminToken(token), 'hex');
  for (const record of adminTokensOf(state)) {
    if (record.revoked_at !== null) continue;
    const stored = Buffer.from(record.hash, 'hex');
    if (stored.length === hash.length && timingSafeEqual(stored, hash)) return record;
  }
  return null;
}

/** In-update: makes a token; the plaintext is returned once. */
export function addAdminToken(draft: StateData, input: { name: string; createdBy: string; now: Date }): { record: AdminTokenRecord; token: string } {
  const name = input.name.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a name must not hold
  if (name === '' || name.length > 100 || /[\u0000-\u001f]/.test(name)) throw new StateInputError('an admin token needs a name of 1 to 100 printable characters (who holds it)');
  const token = `${ADMIN_TOKEN_PREFIX}${randomBase62(43)}`;
  const tokens = (draft.admin_tokens ??= []);
  let id: string;
  do id = `adm_${randomBase62(12)}`; while (tokens.some((record) => record.id === id));
  const record: AdminTokenRecord = {
    id, name, hash: hashAdminToken(token), hint: `${token.slice(0, 8)}…${token.slice(-4)}`,
    created_at: input.now.toISOString(), created_by: input.createdBy, revoked_at: null,
  };
  tokens.push(record);
  return { record: { ...record }, token };
}

export function revokeAdminToken(draft: StateData, id: string, now: Date): AdminTokenRecord {
  const record = (draft.admin_tokens ?? []).find((candidate) => candidate.id === id);
  if (!record) throw new StateRefusedError(`no admin token ${id} (see gw admin tokens list)`);
  if (record.revoked_at !== null) throw new StateRefusedError(`admin token ${id} is already revoked`);
  record.revoked_at = now.toISOString();
  return { ...record };
}

/** parse-state's check of the stored list. */
export function readAdminToken(item: Record<string, unknown>): AdminTokenRecord | string {
  for (const field of ['id', 'name', 'hash', 'hint', 'created_at', 'created_by']) if (typeof item[field] !== 'string') return `${field} is not a string`;
  if (!/^[0-9a-f]{64}$/.test(item.hash as string)) return 'hash is not a hex SHA-256';
  if (item.revoked_at !== null && item.revoked_at !== undefined && typeof item.revoked_at !== 'string') return 'revoked_at is not a date';
  return { ...item, revoked_at: item.revoked_at ?? null } as AdminTokenRecord;
}
