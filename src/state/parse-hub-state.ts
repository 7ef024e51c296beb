// state.json's hub lists (people, tokens, device_codes, live_keys) at the file
// boundary: each item is checked field by field, since the file may have been
// edited by hand; unknown fields are kept.
import type { DeviceCodeRecord, LiveKeyRecord, Person, PersonalTokenRecord } from './hub-schema.js';

type Json = Record<string, unknown>;
type FieldType = 'string' | 'string|null' | 'date' | 'date|null' | 'hash';

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const STATUSES = new Set(['pending', 'approved', 'denied', 'used']);

function badField(item: Json, fields: Record<string, FieldType>): string | null {
  for (const [field, type] of Object.entries(fields)) {
    const value = item[field];
    const nullable = type.endsWith('|null');
    if (nullable && (value === null || value === undefined)) continue;
    if (typeof value !== 'string') return `has no ${field} (a string${nullable ? ' or null' : ''})`;
    // An unreadable expiry would compare as never expiring.
    if (type.startsWith('date') && Number.isNaN(Date.parse(value))) return `${field} is not a date`;
    if (type === 'hash' && !HEX_SHA256.test(value)) return `${field} is not a hex SHA-256`;
  }
  return null;
}

function readDevice(value: unknown): PersonalTokenRecord['device'] | null {
  if (typeof value !== 'object' || value === null) return null;
  const device = value as Json;
  if (typeof device.ip !== 'string' || typeof device.user_agent !== 'string') return null;
  return { ip: device.ip, user_agent: device.user_agent, client_host: typeof device.client_host === 'string' ? device.client_host : null };
}

export function readPerson(item: Json): Person | string {
  return badField(item, { email: 'string', team: 'string', created_at: 'date' }) ?? (item as unknown as Person);
}

export function readToken(item: Json): PersonalTokenRecord | string {
  const bad = badField(item, { id: 'string', person: 'string', hash: 'hash', hint: 'string', created_at: 'date', expires_at: 'date', revoked_at: 'date|null' });
  if (bad !== null) return bad;
  const device = readDevice(item.device);
  if (device === null) return 'has no device (ip, user_agent)';
  return { ...item, device, revoked_at: item.revoked_at ?? null } as PersonalTokenRecord;
}

export function readDeviceCode(item: Json): DeviceCodeRecord | string {
  const bad = badField(item, {
    id: 'string', device_code_hash: 'hash', user_code: 'string', created_at: 'date', expires_at: 'date',
    claimed_email: 'string|null', person: 'string|null', approved_at: 'date|null', approved_by: 'string|null', denied_by: 'string|null', token_id: 'string|null',
  });
  if (bad !== null) return bad;
  if (typeof item.status !== 'string' || !STATUSES.has(item.status)) return `status ${JSON.stringify(item.status)} is not one of ${[...STATUSES].join(', ')}`;
  const requester = readDevice(item.requester);
  if (requester === null) return 'has no requester (ip, user_agent)';
  const nulls = { claimed_email: null, person: null, approved_at: null, approved_by: null, token_id: null };
  return { ...nulls, ...item, requester } as DeviceCodeRecord;
}

export function readLiveKey(item: Json): LiveKeyRecord | string {
  const bad = badField(item, { team: 'string', key_id: 'string', salt: 'string', created_at: 'date', superseded_at: 'date|null' });
  return bad ?? ({ ...item, superseded_at: item.superseded_at ?? null } as LiveKeyRecord);
}
