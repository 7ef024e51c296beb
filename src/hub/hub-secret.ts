// $GW_HOME/hub.key: the 32-byte secret live keys are derived from (see
// src/state/live-keys.ts) and that signs a sidecar's person proof. Created once,
// 0600, with 'wx' so two processes starting together never overwrite each other's.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const HUB_SECRET_FILE = 'hub.key';
const SECRET_BYTES = 32;

export async function loadOrCreateHubSecret(home: string): Promise<Buffer> {
  const file = path.join(home, HUB_SECRET_FILE);
  try {
    await writeFile(file, randomBytes(SECRET_BYTES), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = await readFile(file);
  if (secret.length !== SECRET_BYTES) throw new Error(`${file} holds ${secret.length} bytes, expected ${SECRET_BYTES}: restore it from a backup`);
  return secret;
}
