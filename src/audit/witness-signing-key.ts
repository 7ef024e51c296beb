// $GW_HOME/witness-signing.key: the Ed25519 key a gw acting as a witness (the hub) cosigns
// the checkpoints it accepts with (PKCS#8 PEM, mode 0600), and $GW_HOME/witness.pub, its
// public key, which an auditor passes to `gw audit verify --ocsf --witness-key`. Its own key,
// not the hub's audit-signing.key: the hub's own trail and its witnessing are separate acts,
// and an auditor trusting one need not trust the other. Created once ('wx', so a hub and a
// `gw audit witness-key` run at the same moment never overwrite each other's key).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateKeyFile, type AuditSigningKey } from './signing-key.js';

const WITNESS_SIGNING_KEY_FILE = 'witness-signing.key';
export const WITNESS_PUBLIC_KEY_FILE = 'witness.pub';

export async function loadOrCreateWitnessKey(home: string): Promise<AuditSigningKey> {
  const keyPath = path.join(home, WITNESS_SIGNING_KEY_FILE);
  const key = await loadOrCreateKeyFile(keyPath);
  // Rewritten from the private key each time, so a deleted or edited witness.pub comes back right.
  await writeFile(path.join(home, WITNESS_PUBLIC_KEY_FILE), `${key.publicKey}\n`, { mode: 0o644 });
  return key;
}
