// Start-up recovery (security-reliability.md §A5): a crash can leave the last
// line torn. Only that line is ever repaired: its bytes go to quarantine/, the
// log is cut back to the last good record, and the caller records the repair.
// A bad line further up is tampering and is left for `gw audit verify`.
import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ChainHead } from './checkpoint.js';
import { checkRecordLine, checkRecordLink } from './verify.js';
import { errorCode } from '../error-code.js';

export interface TailState {
  /** The last record in the log after repair; null for an empty log. */
  head: ChainHead | null;
  /** The log's length in bytes after repair: where the next record goes. */
  size: number;
  repaired?: { droppedBytes: number; quarantineFile: string };
}

/** Thrown when the tail is torn and the line before it is damaged too, so no head can be found. */
class AuditTailDamagedError extends Error {
  constructor(file: string) {
    super(`${file}: the last line is torn and the line before it is damaged; run \`gw audit verify\``);
    this.name = 'AuditTailDamagedError';
  }
}

interface LineSpan {
  start: number;
  end: number;
  complete: boolean;
}

const NEWLINE = 0x0a;
const FIRST_READ_BYTES = 64 * 1024;

/** Reads enough of the end of the file to hold the last line and the whole line before it. */
async function readTail(handle: FileHandle, size: number): Promise<{ start: number; bytes: Buffer }> {
  let length = Math.min(size, FIRST_READ_BYTES);
  for (;;) {
    const start = size - length;
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, start);
    let newlines = 0;
    for (let index = bytes.length - 1; index >= 0 && newlines < 3; index -= 1) if (bytes[index] === NEWLINE) newlines += 1;
    if (start === 0 || newlines >= 3) return { start, bytes };
    length = Math.min(size, length * 2);
  }
}

/** The last two line spans of the buffer (offsets relative to it); the first span may be partial when start > 0. */
function lastTwoLines(bytes: Buffer): LineSpan[] {
  const spans: LineSpan[] = [];
  let end = bytes.length;
  if (bytes[end - 1] !== NEWLINE) {
    const start = bytes.lastIndexOf(NEWLINE, end - 1) + 1;
    spans.unshift({ start, end, complete: false });
    end = start - 1;
  } else {
    end -= 1;
  }
  while (spans.length < 2 && end >= 0) {
    const start = end === 0 ? 0 : bytes.lastIndexOf(NEWLINE, end - 1) + 1;
    spans.unshift({ start, end, complete: true });
    end = start - 1;
  }
  return spans;
}

/** The seq and hash a line claims, without judging its hash: enough to link the next line to it. */
function claimedHead(text: string): ChainHead | undefined {
  try {
    const value: unknown = JSON.parse(text);
    const { seq, hash } = (value ?? {}) as Record<string, unknown>;
    return typeof seq === 'number' && typeof hash === 'string' ? { seq, hash } : undefined;
  } catch {
    return undefined;
  }
}

function isGoodLastLine(text: string, span: LineSpan, previous: ChainHead | null | undefined): boolean {
  if (!span.complete) return false;
  const verdict = checkRecordLine(text, 0);
  if ('bad' in verdict) return false;
  // A damaged line before it is middle damage, not a torn tail: judge the last line on its own then.
  return previous === undefined || checkRecordLink(verdict.record, previous) === undefined;
}

async function quarantine(directory: string, bytes: Buffer, now: Date): Promise<string> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/:/g, '-');
  for (let attempt = 0; ; attempt += 1) {
    const file = path.join(directory, `${stamp}${attempt ? `-${attempt}` : ''}.bin`);
    try {
      await writeFile(file, bytes, { mode: 0o600, flag: 'wx' });
      return file;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
}

/** Finds the chain head of `file` (created empty if missing), repairing a torn last line. */
export async function repairTornTail(file: string, quarantineDirectory: string, now: Date): Promise<TailState> {
  const handle = await open(file, 'a+', 0o600);
  try {
    const { size } = await handle.stat();
    if (size === 0) return { head: null, size: 0 };
    const { start, bytes } = await readTail(handle, size);
    const spans = lastTwoLines(bytes);
    const last = spans[spans.length - 1];
    const before = spans.length === 2 ? spans[0] : undefined;
    if (!last) return { head: null, size };
    const text = (span: LineSpan): string => bytes.subarray(span.start, span.end).toString('utf8');
    const previous = before ? claimedHead(text(before)) : null;
    if (isGoodLastLine(text(last), last, previous)) return { head: claimedHead(text(last)) ?? null, size };
    // A crash tears a line (no newline, or bytes that do not parse); a whole record that fails its
    // hash or link was edited. Repairing it would hide the tampering: keep it for verify to report.
    const claimed = last.complete ? claimedHead(text(last)) : undefined;
    if (claimed) return { head: claimed, size };
    if (previous === undefined) throw new AuditTailDamagedError(file);
    const goodSize = start + last.start;
    const quarantineFile = await quarantine(quarantineDirectory, bytes.subarray(last.start), now);
    await handle.truncate(goodSize);
    await handle.datasync();
    return { head: previous, size: goodSize, repaired: { droppedBytes: size - goodSize, quarantineFile } };
  } finally {
    await handle.close();
  }
}
