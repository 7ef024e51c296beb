// Virtual keys: `sk-gw-` + 43 base62 characters (256 random bits) + a 6-character
// base62 CRC32 of those 43. The checksum lets auth reject a typo or a foreign
// token without a lookup, and lets secret scanners recognise gw keys. Only
// the SHA-256 of the whole key is stored; a salt adds nothing for 256-bit secrets.
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { encodeBase62, randomBase62 } from './base62.js';
import type { StateData, VirtualKeyRecord } from './schema.js';
import { StateInputError, StateRefusedError } from './state-errors.js';
import type { StateStore } from './state-store.js';
import { shellCommand } from '../shell-quote.js';

const VIRTUAL_KEY_PREFIX = 'sk-gw-';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const WELL_FORMED = new RegExp(`^${VIRTUAL_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
const MAX_NAME_LENGTH = 128;

export type KeyStatus = 'active' | 'revoked' | 'expired';

export function generateVirtualKey(random: (size: number) => Uint8Array = randomBytes): string {
  const body = encodeBase62(random(32), BODY_LENGTH);
  return `${VIRTUAL_KEY_PREFIX}${body}${checksumOf(body)}`;
}

/** Shape and checksum only: true does not mean the key exists. */
export function isWellFormedVirtualKey(value: string): boolean {
  if (!WELL_FORMED.test(value)) return false;
  const body = value.slice(VIRTUAL_KEY_PREFIX.length, VIRTUAL_KEY_PREFIX.length + BODY_LENGTH);
  return value.endsWith(checksumOf(body));
}

export function hashVirtualKey(key: string): string {
  // Every authenticated request hashes its key: the one-shot form skips a Hash object per call.
  return hash('sha256', key, 'hex');
}

/** `sk-gw-AbCd…wxyz`: enough to tell keys apart in a list, useless for guessing. */
export function keyHint(key: string): string {
  const body = key.slice(VIRTUAL_KEY_PREFIX.length);
  return `${VIRTUAL_KEY_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export function keyStatus(record: VirtualKeyRecord, now: Date): KeyStatus {
  if (record.revoked_at !== null) return 'revoked';
  if (record.expires_at !== null && Date.parse(record.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

export interface CreateKeyInput {
  team: string;
  name?: string | null;
  expiresAt?: Date | null;
  /** Alternative to expiresAt, counted from the same instant as created_at. */
  expiresInMs?: number;
}

/** Creates a key; the plaintext `key` is returned once and never stored. */
export async function createKey(store: StateStore, input: CreateKeyInput): Promise<{ record: VirtualKeyRecord; key: string }> {
  const name = validateKeyName(input.name ?? null);
  const key = generateVirtualKey();
  const record = await store.update((draft) => {
    const now = store.now();
    const expiresAt = input.expiresInMs === undefined ? input.expiresAt ?? null : new Date(now.getTime() + input.expiresInMs);
    if (expiresAt !== null && Number.isNaN(expiresAt.getTime())) throw new StateInputError('invalid expiry date');
    return addKey(draft, { team: input.team, name, expiresAt, key, now });
  });
  return { record, key };
}

/** The in-update half of createKey, shared with bootstrap so a team and its key land in one write. */
export function addKey(
  draft: StateData,
  input: { team: string; name: string | null; expiresAt: Date | null; key: string; now: Date },
): VirtualKeyRecord {
  if (!draft.teams.some((team) => team.name === input.team)) {
    throw new StateRefusedError(`team "${input.team}" does not exist (create it with ${shellCommand(['gw', 'teams', 'create', input.team])})`);
  }
  const record: VirtualKeyRecord = {
    id: newKeyId(draft),
    team: input.team,
    name: input.name,
    hash: hashVirtualKey(input.key),
    hint: keyHint(input.key),
    created_at: input.now.toISOString(),
    expires_at: input.expiresAt?.toISOString() ?? null,
    revoked_at: null,
  };
  draft.keys.push(record);
  return record;
}

/** Revokes by public id; revoking twice keeps the first time and reports `changed: false`. */
export async function revokeKey(store: StateStore, id: string): Promise<{ record: VirtualKeyRecord; changed: boolean }> {
  return store.update((draft) => {
    const record = draft.keys.find((candidate) => candidate.id === id);
    if (!record) throw new StateRefusedError(`no key with id "${id}" (see gw keys list)`);
    if (record.revoked_at !== null) return { record, changed: false };
    record.revoked_at = store.now().toISOString();
    return { record, changed: true };
  });
}

export function listKeys(state: StateData, filter: { team?: string } = {}): VirtualKeyRecord[] {
  return state.keys.filter((record) => filter.team === undefined || record.team === filter.team);
}

// Snapshots are frozen and replaced on change, so an index per snapshot never goes stale.
const indexes = new WeakMap<StateData, Map<string, VirtualKeyRecord>>();

/** The record for a presented key, or null when it is malformed or unknown; check keyStatus next. */
export function findKeyRecord(state: StateData, presented: string): VirtualKeyRecord | null {
  if (!isWellFormedVirtualKey(presented)) return null;
  let index = indexes.get(state);
  if (!index) {
    index = new Map(state.keys.map((record) => [record.hash, record]));
    indexes.set(state, index);
  }
  return index.get(hashVirtualKey(presented)) ?? null;
}

// Checked on every request at the door, so the 32-bit CRC is encoded with plain numbers
// (the same digits encodeBase62 gives for its four big-endian bytes, without BigInt).
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function checksumOf(body: string): string {
  let value = crc32(body) >>> 0;
  let text = '';
  for (let index = 0; index < CHECKSUM_LENGTH; index += 1) {
    text = DIGITS[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return text;
}

function newKeyId(draft: StateData): string {
  // 62^12 ≈ 2^71, so a clash is theoretical; checking costs nothing and makes it impossible.
  for (;;) {
    const id = `vk_${randomBase62(12)}`;
    if (!draft.keys.some((record) => record.id === id)) return id;
  }
}

function validateKeyName(name: string | null): string | null {
  if (name === null) return null;
  // Names are shown in terminals and audit logs: no control characters (no escape sequences).
  if (name.length === 0 || name.length > MAX_NAME_LENGTH || /\p{Cc}/u.test(name)) {
    throw new StateInputError(`invalid key name: use 1 to ${MAX_NAME_LENGTH} printable characters`);
  }
  return name;
}
