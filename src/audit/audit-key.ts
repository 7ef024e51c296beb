// $GW_HOME/audit.key: 32 random bytes that key the checkpoint HMAC, created
// once with mode 0600 ('wx' so two starting gateways never overwrite each other's key).
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

export const AUDIT_KEY_BYTES = 32;

export async function loadOrCreateAuditKey(keyPath: string): Promise<Buffer> {
  try {
    await writeFile(keyPath, randomBytes(AUDIT_KEY_BYTES), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = await readFile(keyPath);
  if (key.length !== AUDIT_KEY_BYTES) throw new Error(`${keyPath} holds ${key.length} bytes, expected ${AUDIT_KEY_BYTES}`);
  return key;
}
