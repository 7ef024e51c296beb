// The hub's cosignature of each checkpoint it accepts (src/audit/cosignature.ts), with its
// witness key (src/audit/witness-signing-key.ts), loaded once on the first accepted push. A
// duplicate push is cosigned again: Ed25519 is deterministic, so the answer is the same.
import { signCosignature, type Cosignature } from '../audit/cosignature.js';
import type { SignedCheckpoint } from '../audit/checkpoint.js';
import { loadOrCreateWitnessKey } from '../audit/witness-signing-key.js';
import type { AuditSigningKey } from '../audit/signing-key.js';

export class WitnessCosigner {
  private key: Promise<AuditSigningKey> | null = null;

  constructor(private readonly home: string) {}

  async cosign(checkpoint: SignedCheckpoint): Promise<Cosignature> {
    this.key ??= loadOrCreateWitnessKey(this.home).catch((error: unknown) => {
      this.key = null; // a full disk or a bad file is retried on the next push
      throw error;
    });
    const key = await this.key;
    return signCosignature(key.privateKey, key.publicKey, checkpoint);
  }

  /** Adds the cosignature to an accepted verdict; a refusal is answered as it is. */
  async answer<V extends { accepted: boolean }>(verdict: V, checkpoint: SignedCheckpoint): Promise<V & { cosignature?: Cosignature }> {
    if (!verdict.accepted) return verdict;
    return { ...verdict, cosignature: await this.cosign(checkpoint) };
  }
}
