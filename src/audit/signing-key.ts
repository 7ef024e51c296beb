// $GW_HOME/audit-signing.key: the trail's Ed25519 private key (PKCS#8 PEM, mode 0600),
// created once ('wx', so two starting gateways never overwrite each other's key), and
// $GW_HOME/audit.pub: its public key (base64url of the 32 raw bytes), which is all
// `gw audit verify` and a witness need.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../error-code.js';
import { errorMessage } from '../error-message.js';

const SIGNING_KEY_FILE = 'audit-signing.key';
export const PUBLIC_KEY_FILE = 'audit.pub';

export interface AuditSigningKey {
  privateKey: KeyObject;
  /** base64url of the raw public key (the JWK `x`). */
  publicKey: string;
}

export function rawPublicKey(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('not an Ed25519 key');
  return jwk.x;
}

export async function loadOrCreateSigningKey(home: string): Promise<AuditSigningKey> {
  return loadOrCreateKeyFile(path.join(home, SIGNING_KEY_FILE));
}

/** An Ed25519 key file made once ('wx') and read back, checked: the trail's key and a witness's share it. */
export async function loadOrCreateKeyFile(keyPath: string): Promise<AuditSigningKey> {
  const { privateKey } = generateKeyPairSync('ed25519');
  try {
    await writeFile(keyPath, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  let stored: KeyObject;
  try {
    stored = createPrivateKey(await readFile(keyPath));
  } catch (error) {
    throw new Error(`${keyPath} is not a PEM private key: ${errorMessage(error)}`, { cause: error });
  }
  if (stored.asymmetricKeyType !== 'ed25519') throw new Error(`${keyPath} holds a ${stored.asymmetricKeyType ?? 'non-asymmetric'} key, expected Ed25519`);
  return { privateKey: stored, publicKey: rawPublicKey(stored) };
}

/** Written at each start once the trail has been checked against its checkpoint, so a deleted audit.pub comes back. */
export async function writePublicKey(home: string, key: AuditSigningKey): Promise<void> {
  await writeFile(path.join(home, PUBLIC_KEY_FILE), `${key.publicKey}\n`, { mode: 0o644 });
}
