// Where the audit sink stands: the chain, and the last record the receiver acknowledged (its
// seq, hash, and the byte offset after it in audit.jsonl). A small file in the home, replaced
// atomically (temp file, fsync, rename, fsync of the folder) only after a 2xx, so after a crash
// or kill -9 delivery resumes from the last acknowledged record: at least once, never a gap.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { nodeAuditFileSystem } from '../audit-file-system.js';
import { readOptionalFile } from '../read-optional-file.js';

export const SINK_CURSOR_FILE = 'audit-sink-cursor.json';

export interface SinkPosition {
  /** The trail id (trailIdOf the hash of record 1). */
  chain: string;
  /** The last record delivered (0: none yet). */
  seq: number;
  /** Its hash (64 zeros before record 1). */
  hash: string;
  /** Bytes of audit.jsonl up to and including its line. */
  offset: number;
}

export interface SinkCursor extends SinkPosition {
  v: 1;
  /** The sink the position belongs to (its URL or path, never the token): a new sink starts from record 1. */
  target: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

function isCursor(value: unknown): value is SinkCursor {
  const cursor = value as Partial<SinkCursor> | null;
  return typeof cursor === 'object' && cursor !== null && cursor.v === 1 && typeof cursor.target === 'string'
    && typeof cursor.chain === 'string' && HEX64.test(cursor.chain) && typeof cursor.hash === 'string' && HEX64.test(cursor.hash)
    && Number.isSafeInteger(cursor.seq) && (cursor.seq ?? -1) >= 0 && Number.isSafeInteger(cursor.offset) && (cursor.offset ?? -1) >= 0;
}

/** The saved cursor, or null when there is none; a damaged one throws (the caller says so and starts over). */
export async function readSinkCursor(file: string): Promise<SinkCursor | null> {
  const bytes = await readOptionalFile(file);
  if (bytes === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(`${path.basename(file)} is not JSON`);
  }
  if (!isCursor(value)) throw new Error(`${path.basename(file)} is not an audit sink cursor`);
  return value;
}

export async function writeSinkCursor(file: string, cursor: SinkCursor): Promise<void> {
  await nodeAuditFileSystem.replaceFile(file, `${JSON.stringify(cursor)}\n`, true);
  // The rename itself survives a power cut only once the folder is synced.
  const folder = await open(path.dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
