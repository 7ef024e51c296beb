// The checkpoint beside the log. A plain hash chain cannot see a cut tail (a prefix
// of a valid chain is valid), so verify compares the log's end with this signed head.
// v2 (written now): Ed25519 over the trail id, seq and hash, so anyone holding the
// public key can check it and a witness can keep it (RFC 8032; the Certificate
// Transparency / Rekor model). v1 (read only): HMAC-SHA256 with audit.key, from
// trails written before signing; the next checkpoint of such a trail is a v2 one.
// Pure: the caller reads and writes the files.
import { createHmac, createPublicKey, hash as digest, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

export interface ChainHead {
  seq: number;
  hash: string;
}

/** The legacy keyed checkpoint. */
export interface HmacCheckpoint extends ChainHead {
  /** hex HMAC-SHA256(key, `${seq}\n${hash}`). */
  hmac: string;
}

export interface SignedCheckpoint extends ChainHead {
  v: 2;
  /** The trail's stable id: trailIdOf(hash of record 1). */
  trail: string;
  /** The Ed25519 public key, base64url of its 32 raw bytes (the JWK `x`). */
  public_key: string;
  /** base64url Ed25519 signature over checkpointMessage(). */
  signature: string;
  /**
   * Present on the last checkpoint of a chain `gw audit rotate` closed: its head is the
   * `audit.chain_closed` record. Signed (the message ends in "closed"), so a witness that
   * holds it knows the chain ended on purpose and a later chain of the sender is not a
   * replacement made behind its back.
   */
  closed?: true;
}

export type Checkpoint = HmacCheckpoint | SignedCheckpoint;

const HEX64 = /^[0-9a-f]{64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function isSignedCheckpoint(checkpoint: Checkpoint): checkpoint is SignedCheckpoint {
  return 'signature' in checkpoint;
}

/**
 * A trail's id is the hash of its first record: it stays the same whatever key signs the
 * trail's checkpoints, so a witness that pinned the first key it saw for the id notices a
 * trail re-chained under a new key (the record at seq 1 is kept, the key is not).
 */
export function trailIdOf(firstRecordHash: string): string {
  return digest('sha256', `gw audit trail\n${firstRecordHash}`, 'hex');
}

function checkpointMessage(trail: string, head: ChainHead, closed = false): string {
  const message = `gw audit checkpoint v2\n${trail}\n${head.seq}\n${head.hash}`;
  return closed ? `${message}\nclosed` : message;
}

function checkpointHmac(key: Uint8Array, head: ChainHead): string {
  return createHmac('sha256', key).update(`${head.seq}\n${head.hash}`, 'utf8').digest('hex');
}

/** The legacy v1 form; only tests and old trails make these. */
export function signCheckpoint(key: Uint8Array, head: ChainHead): HmacCheckpoint {
  return { seq: head.seq, hash: head.hash, hmac: checkpointHmac(key, head) };
}

export function signCheckpointWithKey(privateKey: KeyObject, publicKey: string, trail: string, head: ChainHead, closed = false): SignedCheckpoint {
  const signature = sign(null, Buffer.from(checkpointMessage(trail, head, closed), 'utf8'), privateKey).toString('base64url');
  const checkpoint: SignedCheckpoint = { v: 2, trail, seq: head.seq, hash: head.hash, public_key: publicKey, signature };
  return closed ? { ...checkpoint, closed: true } : checkpoint;
}

export function publicKeyOf(publicKey: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
}

/** The signature matches the checkpoint's own public key; whether that key is the right one is the caller's question (pinning). */
export function isSignatureValid(checkpoint: SignedCheckpoint): boolean {
  try {
    const message = Buffer.from(checkpointMessage(checkpoint.trail, checkpoint, checkpoint.closed === true), 'utf8');
    return verify(null, message, publicKeyOf(checkpoint.public_key), Buffer.from(checkpoint.signature, 'base64url'));
  } catch {
    return false; // a malformed key is not a valid signature
  }
}

export function isCheckpointAuthentic(key: Uint8Array, checkpoint: HmacCheckpoint): boolean {
  const expected = Buffer.from(checkpointHmac(key, checkpoint), 'hex');
  const given = Buffer.from(checkpoint.hmac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Checks the shape of a parsed checkpoint (from checkpoint.json, a witness log or a push); throws an Error naming what is wrong. */
export function readCheckpoint(value: unknown): Checkpoint {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('checkpoint is not a JSON object');
  const fields = value as Record<string, unknown>;
  const { seq, hash } = fields;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw new Error('checkpoint seq is not a non-negative integer');
  if (typeof hash !== 'string' || !HEX64.test(hash)) throw new Error('checkpoint hash is not 64 hex digits');
  if (fields.v === 2) {
    const { trail, public_key: publicKey, signature } = fields;
    if (typeof trail !== 'string' || !HEX64.test(trail)) throw new Error('checkpoint trail is not 64 hex digits');
    if (typeof publicKey !== 'string' || publicKey.length !== 43 || !BASE64URL.test(publicKey)) throw new Error('checkpoint public_key is not a base64url Ed25519 key');
    if (typeof signature !== 'string' || signature.length !== 86 || !BASE64URL.test(signature)) throw new Error('checkpoint signature is not a base64url Ed25519 signature');
    if (fields.closed !== undefined && fields.closed !== true) throw new Error('checkpoint closed is not true');
    const checkpoint: SignedCheckpoint = { v: 2, trail, seq, hash, public_key: publicKey, signature };
    return fields.closed === true ? { ...checkpoint, closed: true } : checkpoint;
  }
  const { hmac } = fields;
  if (typeof hmac !== 'string' || !HEX64.test(hmac)) throw new Error('checkpoint hmac is not 64 hex digits');
  return { seq, hash, hmac };
}

/** Parses checkpoint.json; throws an Error naming what is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('checkpoint is not valid JSON');
  }
  return readCheckpoint(value);
}
