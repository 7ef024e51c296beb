// The checkpoint beside the log: {seq, hash, hmac}. A plain hash chain cannot
// see a cut tail (a prefix of a valid chain is valid), so verify compares the
// log's end with this keyed head. Pure: the caller reads and writes the file.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ChainHead {
  seq: number;
  hash: string;
}

export interface Checkpoint extends ChainHead {
  /** hex HMAC-SHA256(key, `${seq}\n${hash}`). */
  hmac: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

export function checkpointHmac(key: Uint8Array, head: ChainHead): string {
  return createHmac('sha256', key).update(`${head.seq}\n${head.hash}`, 'utf8').digest('hex');
}

export function signCheckpoint(key: Uint8Array, head: ChainHead): Checkpoint {
  return { seq: head.seq, hash: head.hash, hmac: checkpointHmac(key, head) };
}

export function isCheckpointAuthentic(key: Uint8Array, checkpoint: Checkpoint): boolean {
  const expected = Buffer.from(checkpointHmac(key, checkpoint), 'hex');
  const given = Buffer.from(checkpoint.hmac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Parses checkpoint.json; throws an Error naming what is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('checkpoint is not valid JSON');
  }
  if (typeof value !== 'object' || value === null) throw new Error('checkpoint is not a JSON object');
  const { seq, hash, hmac } = value as Record<string, unknown>;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw new Error('checkpoint seq is not a non-negative integer');
  if (typeof hash !== 'string' || !HEX64.test(hash)) throw new Error('checkpoint hash is not 64 hex digits');
  if (typeof hmac !== 'string' || !HEX64.test(hmac)) throw new Error('checkpoint hmac is not 64 hex digits');
  return { seq, hash, hmac };
}
