// At start, this home's signing key must be one the trust file holds: otherwise the trail
// gw is about to write is one `gw audit verify` refuses (a reinstall, or a key deleted and
// made again to re-sign a rewritten trail). The first start of a home (or of a home made
// before trust files) seeds the file with the key it finds, and says so.
// A key that `gw audit rotate` introduced (a closed chain signed by a trusted key names it) is
// trusted the same way verify trusts it: no trust file entry needed.
import { addTrustedKey, defaultTrustFile, fingerprintOf, readTrustFile } from './trust-file.js';
import { keysIntroducedByRotation, type ChainToTrust } from './rotation-trust.js';

export type StartTrust =
  | { kind: 'trusted'; rotatedFrom?: string }
  | { kind: 'seeded'; note: string }
  | { kind: 'untrusted'; reason: string };

/** `hadRecords`: the home already held a trail (an upgrade from before trust files), which the note is worth telling. */
/** `rotations`: the closed chains' evidence (src/audit/closed-chains.ts, or the store's closed chains). */
export async function checkKeyTrustedAtStart(home: string, publicKey: string, now: Date, hadRecords = false, rotations: readonly ChainToTrust[] = []): Promise<StartTrust> {
  const file = defaultTrustFile(home);
  const keys = await readTrustFile(file);
  if (keys === null) {
    await addTrustedKey(file, { public_key: publicKey, name: 'this home', added_at: now.toISOString(), note: 'seeded at start from the key already in this home' });
    if (!hadRecords) return { kind: 'trusted' };
    return { kind: 'seeded', note: `audit trust file ${file} seeded with this home's signing key ${fingerprintOf(publicKey)}: its trail is from before trust files (gw audit trust list shows it)` };
  }
  if (keys.some((key) => key.public_key === publicKey)) return { kind: 'trusted' };
  const from = keysIntroducedByRotation(rotations, keys.map((key) => key.public_key)).get(publicKey);
  if (from !== undefined) return { kind: 'trusted', rotatedFrom: fingerprintOf(from) };
  return {
    kind: 'untrusted',
    reason: `this home's signing key ${fingerprintOf(publicKey)} is not in ${file} (the key was replaced: gw audit verify would refuse every record it signs)`,
  };
}

/** With --accept-audit-gap: the new key is trusted from now on, and the gap record says so. */
export async function trustKeyAfterGap(home: string, publicKey: string, now: Date): Promise<void> {
  await addTrustedKey(defaultTrustFile(home), { public_key: publicKey, name: 'this home', added_at: now.toISOString(), note: 'a new key accepted with gw serve --accept-audit-gap' });
}
