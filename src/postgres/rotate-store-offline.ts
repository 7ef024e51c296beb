// gw audit rotate --store URL with no gw running on this home: a short chain is opened for the
// instance as a boot would (its start trusted as a boot's is), closed by the rotation, and the
// next chain, opened under the new key, is stopped at once. The next gw serve starts its own
// chain under the new key, which verify trusts by that rotation.
import { AuditGapError } from '../audit/check-start-gap.js';
import { AuditRotationError, type RotationSummary } from '../audit/audit-trail.js';
import { loadOrCreateSigningKey, writePublicKey } from '../audit/signing-key.js';
import { checkKeyTrustedAtStart } from '../audit/trust-at-start.js';
import { openDatabase } from './database.js';
import { openPostgresAuditTrail } from './postgres-audit-trail.js';
import { recoverStoreRotation, storeRotationEvidence } from './postgres-audit-rotation.js';

export async function rotateStoreOffline(url: string, home: string): Promise<RotationSummary> {
  const database = openDatabase(url, { maxConnections: 2 });
  try {
    await recoverStoreRotation(database, home);
    const signingKey = await loadOrCreateSigningKey(home);
    const trust = await checkKeyTrustedAtStart(home, signingKey.publicKey, new Date(), true, await storeRotationEvidence(database));
    if (trust.kind === 'untrusted') throw new AuditRotationError(new AuditGapError({ reason: trust.reason, checkpoint_seq: 0, checkpoint_hash: '', log_seq: 0, log_hash: null }, home).message);
    await writePublicKey(home, signingKey);
    const trail = await openPostgresAuditTrail({ database, signingKey, home, instance: `gw audit rotate:${process.pid}` });
    try {
      return await trail.rotate!();
    } finally {
      await trail.close();
    }
  } finally {
    await database.end().catch(() => undefined);
  }
}
