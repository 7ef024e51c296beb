// Reads the records after a sink position from audit.jsonl, by byte offset, up to a seq the
// checkpoint covers: the trail itself is the sink's queue. The writer puts whole batches in the
// file before it signs a checkpoint naming them, so every line up to that seq is complete.
// Each record must follow the one before it (seq and prev): a trail that no longer holds what
// was delivered is a TrailMismatchError, never silently skipped.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { AuditRecord } from '../record.js';
import type { SinkPosition } from './sink-cursor.js';

export interface TrailEntry {
  line: string;
  record: AuditRecord;
}

export interface TrailSlice {
  entries: TrailEntry[];
  /** Where the slice ends: the position to save once it is delivered. */
  end: SinkPosition;
}

export class TrailMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrailMismatchError';
  }
}

// One record line is a few hundred bytes; a buffer this large that holds no whole line is damage.
const MAX_LINE_BYTES = 16 * 1024 * 1024;

export function parseLine(line: string, after: SinkPosition): AuditRecord {
  let record: AuditRecord;
  try {
    record = JSON.parse(line) as AuditRecord;
  } catch {
    throw new TrailMismatchError(`the line after seq ${after.seq} is not JSON (gw audit verify names the damage)`);
  }
  if (record.seq !== after.seq + 1 || record.prev !== after.hash) {
    throw new TrailMismatchError(`the record after seq ${after.seq} does not follow it (seq ${String(record.seq)}): the trail is not the one delivered so far`);
  }
  return record;
}

async function readChunk(logFile: string, offset: number, size: number): Promise<Buffer> {
  const handle = await open(logFile, 'r');
  try {
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Records after `from`, at most up to seq `upTo`, about `maxBytes` of trail at most (always at least one record). */
export async function readTrailSlice(logFile: string, from: SinkPosition, upTo: number, maxBytes: number): Promise<TrailSlice> {
  const entries: TrailEntry[] = [];
  let end = from;
  for (let size = maxBytes; entries.length === 0 && end.seq < upTo; size *= 2) {
    const chunk = await readChunk(logFile, from.offset, size);
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1 && end.seq < upTo; newline = chunk.indexOf(10, start)) {
      const line = chunk.toString('utf8', start, newline);
      const record = parseLine(line, end);
      entries.push({ line, record });
      start = newline + 1;
      end = { chain: from.chain, seq: record.seq, hash: record.hash, offset: from.offset + start };
    }
    if (entries.length > 0) break;
    if (chunk.length < size) throw new TrailMismatchError(`the trail ends before seq ${from.seq + 1}, which its checkpoint covers`);
    if (size >= MAX_LINE_BYTES) throw new TrailMismatchError(`no whole record after seq ${from.seq} within ${MAX_LINE_BYTES} bytes`);
  }
  return { entries, end };
}

/** Whether the line that ends at the position's offset is its record (seq and hash): a saved cursor still fits the log. */
export async function endsAtRecord(logFile: string, position: SinkPosition): Promise<boolean> {
  if (position.seq === 0) return position.offset === 0;
  const start = Math.max(0, position.offset - 64 * 1024);
  const chunk = await readChunk(logFile, start, position.offset - start).catch(() => Buffer.alloc(0));
  if (chunk.length !== position.offset - start || chunk[chunk.length - 1] !== 10) return false;
  const line = chunk.toString('utf8', chunk.lastIndexOf(10, chunk.length - 2) + 1, chunk.length - 1);
  try {
    const record = JSON.parse(line) as Partial<AuditRecord>;
    return record.seq === position.seq && record.hash === position.hash;
  } catch {
    return false;
  }
}

/** The position just after record `seq`, found by reading the log from its start; checks the record's hash. */
export async function locateRecord(logFile: string, chain: string, seq: number, hash: string): Promise<SinkPosition> {
  if (seq === 0) return { chain, seq, hash, offset: 0 };
  const lines = createInterface({ input: createReadStream(logFile), crlfDelay: Infinity });
  let offset = 0;
  try {
    for await (const line of lines) {
      offset += Buffer.byteLength(line, 'utf8') + 1;
      let record: Partial<AuditRecord>;
      try {
        record = JSON.parse(line) as Partial<AuditRecord>;
      } catch {
        continue; // a damaged line: the seq we look for is after or before it, verify names it
      }
      if (record.seq !== seq) continue;
      if (record.hash !== hash) throw new TrailMismatchError(`the trail's record ${seq} is not the one delivered (another hash): the trail was rewritten`);
      return { chain, seq, hash, offset };
    }
  } finally {
    lines.close();
  }
  throw new TrailMismatchError(`the trail no longer holds record ${seq}, which was delivered: the trail was cut or replaced`);
}

/** A log's first line (record 1), or undefined when the log is missing, empty or its first line is not complete. */
export async function readFirstLine(logFile: string): Promise<string | undefined> {
  const chunk = await readChunk(logFile, 0, 64 * 1024).catch(() => Buffer.alloc(0));
  const newline = chunk.indexOf(10);
  return newline === -1 ? undefined : chunk.toString('utf8', 0, newline);
}
