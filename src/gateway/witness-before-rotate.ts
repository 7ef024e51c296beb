// gw audit rotate under the witness: before a chain is closed, it is held against every
// configured witness as a start would hold it (src/audit/check-witness-at-start.ts). A chain
// cut back or rolled back behind what a witness holds, or forked from it, is refused before
// anything changes: closing it would send the witness a closed checkpoint below what it holds
// and let the next start take the cut for a rotation. `--accept-audit-gap` rotates anyway and
// records an audit.gap in the chain being closed, which later starts read as accepted. A
// witness that cannot be read does not stop the rotation (the start's availability rule):
// the caller is told, and the next start compares the closed chain with it.
import { RotateBehindWitnessError, holdTrailToReaders, readLocalTrail, type WitnessReader } from './witness-at-start.js';
import { ensureInstanceId } from '../audit/instance-id.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { RotationSummary } from '../audit/file-trail-handle.js';
import { GatewayError } from '../errors.js';

export interface RotationWitnessCheck {
  home: string;
  /** The witnesses to ask (the setting's, a sidecar's hub); none: nothing to compare. */
  readers: readonly WitnessReader[];
  acceptGap: boolean;
  /** The audit.gap's accepted_by: which command accepted it. */
  acceptedBy: string;
  warn(message: string): void;
}

/** Throws RotateBehindWitnessError (nothing changed) or records the accepted gap; resolves with the witnesses that could not be read. */
export async function holdRotationToWitnesses(audit: Pick<AuditTrail, 'append'>, check: RotationWitnessCheck): Promise<string[]> {
  if (check.readers.length === 0) return [];
  const instance = await ensureInstanceId(check.home);
  // Read under the audit lock the caller holds (or from the running writer's own files): the chain about to close.
  const local = await readLocalTrail(check.home);
  return holdTrailToReaders(check.readers, {
    home: check.home, instance, local, acceptGap: check.acceptGap, audit, warn: (message) => check.warn(message), acceptedBy: check.acceptedBy,
    refuse: (rollback) => new RotateBehindWitnessError(rollback, check.home),
    describeSkip: (witness, why) => `${witness} could not be read (${why}): rotated without comparing the chain with it; the next gw serve compares the closed chain`,
  });
}

/** A running gw's rotation (POST /admin/api/audit/rotate): held against its witnesses, then rotated; a refusal is the catalog's 409. */
export async function rotateUnderWitness(audit: Pick<AuditTrail, 'append' | 'flush'>, rotate: () => Promise<RotationSummary>, check: RotationWitnessCheck): Promise<RotationSummary> {
  // What the running writer has appended is on disk and checkpointed before the files are read.
  await audit.flush();
  try {
    await holdRotationToWitnesses(audit, check);
  } catch (error) {
    if (error instanceof RotateBehindWitnessError) throw new GatewayError('GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS', { message: error.message });
    throw error;
  }
  return rotate();
}
