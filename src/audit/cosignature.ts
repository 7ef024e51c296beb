// A witness's cosignature of a checkpoint it accepted: its own Ed25519 signature over the
// chain id, seq and hash (and "closed" when the checkpoint closes its chain). With it the
// trail's owner holds proof that a party it does not control saw the chain at that head, and
// an OCSF export carries that proof to an auditor who trusts the witness's key, not the
// instance's (RFC 8032; the Certificate Transparency witness model). Pure: the caller reads
// and writes keys and files.
import { sign, verify, type KeyObject } from 'node:crypto';
import { publicKeyOf, type SignedCheckpoint } from './checkpoint.js';

export interface Cosignature {
  trail: string;
  seq: number;
  hash: string;
  closed?: true;
  /** The witness's Ed25519 public key, base64url of its 32 raw bytes. */
  witness_public_key: string;
  /** base64url Ed25519 signature over cosignatureMessage(). */
  signature: string;
}

/** One line of audit/cosignatures.jsonl (or one row of gw_audit_cosignatures): the cosignature with the instance's checkpoint it cosigns. */
export interface StoredCosignature extends Cosignature {
  /** The instance's key and checkpoint signature at this seq, so an export can sign the record without the witness's log. */
  public_key: string;
  checkpoint_signature: string;
  /** The witness target's name (`hub https://…`, `http https://…`): never a credential. */
  witness: string;
  received_at: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const KEY = /^[A-Za-z0-9_-]{43}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/;

export function cosignatureMessage(trail: string, seq: number, hash: string, closed = false): string {
  const message = `gw audit cosignature v1\n${trail}\n${seq}\n${hash}`;
  return closed ? `${message}\nclosed` : message;
}

export function signCosignature(privateKey: KeyObject, witnessPublicKey: string, checkpoint: SignedCheckpoint): Cosignature {
  const closed = checkpoint.closed === true;
  const signature = sign(null, Buffer.from(cosignatureMessage(checkpoint.trail, checkpoint.seq, checkpoint.hash, closed), 'utf8'), privateKey).toString('base64url');
  const cosignature: Cosignature = { trail: checkpoint.trail, seq: checkpoint.seq, hash: checkpoint.hash, witness_public_key: witnessPublicKey, signature };
  return closed ? { ...cosignature, closed: true } : cosignature;
}

/** The signature matches the cosignature's own witness key; whether that key is trusted is the caller's question. */
export function isCosignatureValid(cosignature: Cosignature): boolean {
  try {
    const message = Buffer.from(cosignatureMessage(cosignature.trail, cosignature.seq, cosignature.hash, cosignature.closed === true), 'utf8');
    return verify(null, message, publicKeyOf(cosignature.witness_public_key), Buffer.from(cosignature.signature, 'base64url'));
  } catch {
    return false; // a malformed key is not a valid signature
  }
}

/** The cosignature is of exactly this checkpoint (trail, seq, hash and closed flag). */
function cosignsCheckpoint(cosignature: Cosignature, checkpoint: SignedCheckpoint): boolean {
  return cosignature.trail === checkpoint.trail && cosignature.seq === checkpoint.seq && cosignature.hash === checkpoint.hash
    && (cosignature.closed === true) === (checkpoint.closed === true);
}

/** Checks the shape of a parsed cosignature (a witness's answer); throws an Error naming what is wrong. */
export function readCosignature(value: unknown): Cosignature {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('cosignature is not a JSON object');
  const { trail, seq, hash, closed, witness_public_key: key, signature } = value as Record<string, unknown>;
  if (typeof trail !== 'string' || !HEX64.test(trail)) throw new Error('cosignature trail is not 64 hex digits');
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) throw new Error('cosignature seq is not a positive integer');
  if (typeof hash !== 'string' || !HEX64.test(hash)) throw new Error('cosignature hash is not 64 hex digits');
  if (closed !== undefined && closed !== true) throw new Error('cosignature closed is not true');
  if (typeof key !== 'string' || !KEY.test(key)) throw new Error('cosignature witness_public_key is not a base64url Ed25519 key');
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) throw new Error('cosignature signature is not a base64url Ed25519 signature');
  const cosignature: Cosignature = { trail, seq, hash, witness_public_key: key, signature };
  return closed === true ? { ...cosignature, closed: true } : cosignature;
}

/** One stored line, or null when it is not one (a damaged line is skipped by the reader, which counts it). */
export function readStoredCosignature(value: unknown): StoredCosignature | null {
  try {
    const cosignature = readCosignature(value);
    const { public_key: publicKey, checkpoint_signature: checkpointSignature, witness, received_at: receivedAt } = value as Record<string, unknown>;
    if (typeof publicKey !== 'string' || !KEY.test(publicKey) || typeof checkpointSignature !== 'string' || !SIGNATURE.test(checkpointSignature)) return null;
    return { ...cosignature, public_key: publicKey, checkpoint_signature: checkpointSignature, witness: typeof witness === 'string' ? witness : '', received_at: typeof receivedAt === 'string' ? receivedAt : '' };
  } catch {
    return null;
  }
}

/**
 * What the pusher keeps of a witness's answer: the cosignature beside the checkpoint it cosigns,
 * or why it is not kept (a cosignature of another checkpoint, or one that does not verify, is
 * nothing an auditor could use).
 */
export function storedCosignatureOf(checkpoint: SignedCheckpoint, cosignature: Cosignature, witness: string, receivedAt: string): StoredCosignature | { refused: string } {
  if (!cosignsCheckpoint(cosignature, checkpoint)) return { refused: `the witness's cosignature is of another checkpoint than seq ${checkpoint.seq} it was sent` };
  if (!isCosignatureValid(cosignature)) return { refused: 'the witness\'s cosignature does not verify against its witness_public_key' };
  return { ...cosignature, public_key: checkpoint.public_key, checkpoint_signature: checkpoint.signature, witness, received_at: receivedAt };
}

/** The instance's signed checkpoint a stored cosignature was made over. */
export function checkpointOfStored(stored: StoredCosignature): SignedCheckpoint {
  const checkpoint: SignedCheckpoint = { v: 2, trail: stored.trail, seq: stored.seq, hash: stored.hash, public_key: stored.public_key, signature: stored.checkpoint_signature };
  return stored.closed === true ? { ...checkpoint, closed: true } : checkpoint;
}

/**
 * A witness's 2xx answer: `{cosignature: {...}}` when it has a key (a gw hub), anything else
 * when it has none. A malformed cosignature is dropped (the push still counts as accepted):
 * the pusher's check of what it keeps is cosignsCheckpoint and isCosignatureValid.
 */
export function cosignatureInAnswer(text: string): { ok: true; cosignature?: Cosignature } {
  try {
    const value = JSON.parse(text) as { cosignature?: unknown } | null;
    if (typeof value !== 'object' || value === null || value.cosignature === undefined) return { ok: true };
    return { ok: true, cosignature: readCosignature(value.cosignature) };
  } catch {
    return { ok: true };
  }
}
