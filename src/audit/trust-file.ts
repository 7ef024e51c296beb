// $GW_HOME/audit-trust.json: the Ed25519 public keys the operator trusts to sign audit chains.
// `gw audit verify` fails on a chain signed by any other key (fail closed): a chain re-signed
// under a fresh key by whoever can write the files or the database is then a failure, not a
// warning. gw serve seeds the file with its own key the first time (a new home, or a home
// from before trust files), and refuses to start under a key the file does not hold.
// The file is only as safe as where it is kept: an operator who fears a writer of the home
// keeps a copy elsewhere and names it with --trust-file.
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readOptionalFile } from './read-optional-file.js';
import { fingerprintOf } from './key-fingerprint.js';

export { fingerprintOf } from './key-fingerprint.js';

const TRUST_FILE = 'audit-trust.json';

export interface TrustedKey {
  /** base64url of the raw Ed25519 public key (audit.pub's content). */
  public_key: string;
  /** Who or what the key belongs to (an instance, a sidecar's person), for people. */
  name: string;
  added_at: string;
  /** Why it was added: by an operator, seeded at a first start, a new key accepted with --accept-audit-gap. */
  note: string;
}

const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

export function isPublicKeyText(text: string): boolean {
  return BASE64URL_KEY.test(text);
}

export function defaultTrustFile(home: string): string {
  return path.join(home, TRUST_FILE);
}

function readEntry(value: unknown): TrustedKey | null {
  if (typeof value !== 'object' || value === null) return null;
  const fields = value as Record<string, unknown>;
  if (typeof fields.public_key !== 'string' || !isPublicKeyText(fields.public_key)) return null;
  const text = (item: unknown): string => (typeof item === 'string' ? item : '');
  return { public_key: fields.public_key, name: text(fields.name), added_at: text(fields.added_at), note: text(fields.note) };
}

/** The trusted keys, or null when the file does not exist. A file that is not a trust file is an error. */
export async function readTrustFile(file: string): Promise<TrustedKey[] | null> {
  const bytes = await readOptionalFile(file);
  if (bytes === undefined) return null;
  let value: unknown;
  try { value = JSON.parse(bytes.toString('utf8')); } catch { throw new Error(`${file} is not JSON`); }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error(`${file} is not an audit trust file (no "keys" list)`);
  return keys.map(readEntry).filter((entry): entry is TrustedKey => entry !== null);
}

async function writeTrustFile(file: string, keys: readonly TrustedKey[]): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ v: 1, keys }, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** Adds a key (a key already there is kept as it was); returns whether it was new. */
export async function addTrustedKey(file: string, entry: TrustedKey): Promise<boolean> {
  const keys = (await readTrustFile(file)) ?? [];
  if (keys.some((key) => key.public_key === entry.public_key)) return false;
  await writeTrustFile(file, [...keys, entry]);
  return true;
}

/** Removes the key with this fingerprint or value; returns the removed entry, or null. */
export async function removeTrustedKey(file: string, keyOrFingerprint: string): Promise<TrustedKey | null> {
  const keys = (await readTrustFile(file)) ?? [];
  const removed = keys.find((key) => key.public_key === keyOrFingerprint || fingerprintOf(key.public_key) === keyOrFingerprint) ?? null;
  if (removed !== null) await writeTrustFile(file, keys.filter((key) => key !== removed));
  return removed;
}
