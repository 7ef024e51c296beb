// Device-login codes (RFC 8628) in state.json: the device_code stored only as its
// SHA-256, the user_code (8 characters of the base-20 alphabet, §6.1) in the
// clear since it is short-lived, single-use and rate-limited at the page.
import { randomBytes, randomInt } from 'node:crypto';
import { encodeBase62, randomBase62 } from './base62.js';
import { hashSecret } from './personal-tokens.js';
import type { DeviceCodeRecord, StateData } from './schema.js';
import { StateInputError, StateRefusedError } from './state-errors.js';
import type { StateStore } from './state-store.js';
import { shellCommand } from '../shell-quote.js';

/** RFC 8628 §6.1: no vowels (no accidental words), no 0/O or 1/I. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
export const DEVICE_CODE_TTL_MS = 600_000;
/** Codes are kept this long past expiry so `gw device list` can still show them, then pruned. */
const KEEP_EXPIRED_MS = 86_400_000;

export function generateUserCode(pick: (max: number) => number = randomInt): string {
  let code = '';
  for (let index = 0; index < USER_CODE_LENGTH; index += 1) code += USER_CODE_ALPHABET[pick(USER_CODE_ALPHABET.length)];
  return code;
}

/** `BCDF-GHJK`: how a code is shown. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person typed → the stored form (uppercase, dashes and spaces ignored), or null when it cannot be a code. */
export function normalizeUserCode(text: string): string | null {
  const code = text.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  return [...code].every((character) => USER_CODE_ALPHABET.includes(character)) ? code : null;
}

function generateDeviceCode(): string {
  return encodeBase62(randomBytes(32), 43);
}

export function isLive(record: DeviceCodeRecord, now: Date): boolean {
  return Date.parse(record.expires_at) > now.getTime() && (record.status === 'pending' || record.status === 'approved');
}

/** Starts a device login; the device_code plaintext is returned once. */
export async function createDeviceCode(store: StateStore, requester: DeviceCodeRecord['requester'], gateway = false): Promise<{ record: DeviceCodeRecord; deviceCode: string }> {
  const deviceCode = generateDeviceCode();
  const record = await store.update((draft) => {
    const now = store.now();
    draft.device_codes = draft.device_codes.filter((code) => Date.parse(code.expires_at) + KEEP_EXPIRED_MS > now.getTime());
    const taken = new Set(draft.device_codes.map((code) => code.user_code));
    let userCode = generateUserCode();
    while (taken.has(userCode)) userCode = generateUserCode();
    const created: DeviceCodeRecord = {
      id: `dc_${randomBase62(12)}`, device_code_hash: hashSecret(deviceCode), user_code: userCode, status: 'pending', requester,
      created_at: now.toISOString(), expires_at: new Date(now.getTime() + DEVICE_CODE_TTL_MS).toISOString(),
      claimed_email: null, person: null, approved_at: null, approved_by: null, token_id: null,
      ...(gateway ? { gateway: true } : {}),
    };
    draft.device_codes.push(created);
    return created;
  });
  return { record, deviceCode };
}

/** A live (pending or approved, unexpired) code by what a person typed; null for unknown, expired and used alike. */
export function findLiveUserCode(state: StateData, typed: string, now: Date): DeviceCodeRecord | null {
  const code = normalizeUserCode(typed);
  if (code === null) return null;
  const record = state.device_codes.find((candidate) => candidate.user_code === code);
  return record && isLive(record, now) ? record : null;
}

function mustBePending(draft: StateData, typed: string, now: Date): DeviceCodeRecord {
  const code = normalizeUserCode(typed);
  if (code === null) throw new StateInputError(`invalid code "${typed}": codes look like BCDF-GHJK`);
  const record = draft.device_codes.find((candidate) => candidate.user_code === code);
  if (!record || !isLive(record, now)) throw new StateRefusedError(`no pending login with code ${formatUserCode(code)} (expired, used or unknown; see gw device list)`);
  if (record.status !== 'pending') throw new StateRefusedError(`code ${formatUserCode(code)} is already ${record.status}`);
  return record;
}

/** Approves a pending code for a person of this hub (`gw device approve`, or an OIDC sign-in). */
export async function approveDeviceCode(store: StateStore, typed: string, email: string, approvedBy: string): Promise<DeviceCodeRecord> {
  return store.update((draft) => {
    const now = store.now();
    const record = mustBePending(draft, typed, now);
    if (!draft.people.some((person) => person.email === email)) throw new StateRefusedError(`no person ${email} on this hub (add one with ${shellCommand(['gw', 'people', 'add', email])} --team TEAM)`);
    Object.assign(record, { status: 'approved', person: email, approved_at: now.toISOString(), approved_by: approvedBy });
    return { ...record };
  });
}

/** `deniedBy`: who, so the waiting gw login can say (`verification_page`, `cli` or `admin:<name>`). */
export async function denyDeviceCode(store: StateStore, typed: string, deniedBy: string): Promise<DeviceCodeRecord> {
  return store.update((draft) => {
    const record = mustBePending(draft, typed, store.now());
    record.status = 'denied';
    record.denied_by = deniedBy;
    return { ...record };
  });
}

/** The verification page's step: the person says "this is me" with their email; the admin then approves. */
export async function claimDeviceCode(store: StateStore, id: string, email: string): Promise<DeviceCodeRecord | null> {
  return store.update((draft) => {
    const record = draft.device_codes.find((candidate) => candidate.id === id);
    if (!record || record.status !== 'pending' || !isLive(record, store.now())) return null;
    record.claimed_email = email;
    return { ...record };
  });
}
