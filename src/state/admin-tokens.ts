// Admin tokens: `gwa-` + 43 base62 characters (256 random bits), the credential of the
// admin API (/admin/api) and console (/ui), apart from every inference credential. Made
// with `gw admin tokens create` on the hub (or by another admin over the API), shown
// once, stored only as a SHA-256 hash.
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './base62.js';
import { ADMIN_ROLES, type AdminRole } from './hub-schema.js';
import type { AdminTokenRecord, StateData } from './schema.js';

export type { AdminTokenRecord, AdminRole };
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

function isAdminRole(value: unknown): value is AdminRole {
  return typeof value === 'string' && ADMIN_ROLES.some((role) => role === value);
}

/** A role and its teams as asked for: a team_admin names existing teams, the other roles none. */
function checkRole(draft: StateData, role: string, teams: readonly string[]): { role: AdminRole; teams?: string[] } {
  if (!isAdminRole(role)) throw new StateInputError(`role is one of ${ADMIN_ROLES.join(', ')}; got "${role}"`);
  if (role !== 'team_admin') {
    if (teams.length > 0) throw new StateInputError(`only a team_admin has teams; a ${role} reaches ${role === 'admin' ? 'every team' : 'every team, read-only'}`);
    return { role };
  }
  if (teams.length === 0) throw new StateInputError('a team_admin needs at least one team');
  const unknown = teams.find((team) => !draft.teams.some((known) => known.name === team));
  if (unknown !== undefined) throw new StateInputError(`no team "${unknown}" (see the Teams page, or gw teams list)`);
  return { role, teams: [...new Set(teams)] };
}

/** In-update: makes a token; the plaintext is returned once. */
export function addAdminToken(draft: StateData, input: { name: string; createdBy: string; now: Date; role?: string; teams?: readonly string[] }): { record: AdminTokenRecord; token: string } {
  const name = input.name.trim();
  const access = checkRole(draft, input.role ?? 'admin', input.teams ?? []);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a name must not hold
  if (name === '' || name.length > 100 || /[\u0000-\u001f]/.test(name)) throw new StateInputError('an admin token needs a name of 1 to 100 printable characters (who holds it)');
  const token = `${ADMIN_TOKEN_PREFIX}${randomBase62(43)}`;
  const tokens = (draft.admin_tokens ??= []);
  let id: string;
  do id = `adm_${randomBase62(12)}`; while (tokens.some((record) => record.id === id));
  const record: AdminTokenRecord = {
    id, name, hash: hashAdminToken(token), hint: `${token.slice(0, 8)}…${token.slice(-4)}`,
    created_at: input.now.toISOString(), created_by: input.createdBy, revoked_at: null, ...access,
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
  if (item.role !== undefined && !isAdminRole(item.role)) return `role is not one of ${ADMIN_ROLES.join(', ')}`;
  if (item.teams !== undefined && !(Array.isArray(item.teams) && item.teams.every((team) => typeof team === 'string'))) return 'teams is not a list of team names';
  return { ...item, revoked_at: item.revoked_at ?? null } as AdminTokenRecord;
}
