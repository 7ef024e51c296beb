// An audit sink that is a file (setting audit_sink = /path): each batch appended and synced
// before the cursor moves. The file can say what it holds, so a restart after a crash between
// the append and the cursor does not append a batch twice: its lines stay one chain that
// `gw audit verify --ocsf` checks as it is. A torn last line (a crash mid-append) is cut first.
import { open, stat, truncate } from 'node:fs/promises';
import type { SinkTarget } from './audit-sink.js';
import type { SinkPosition } from './sink-cursor.js';

// An event is a few KiB; the tail read holds the last whole one.
const TAIL_BYTES = 256 * 1024;

async function readTail(file: string): Promise<{ text: string; start: number } | null> {
  const size = (await stat(file).catch(() => null))?.size ?? 0;
  if (size === 0) return null;
  const start = Math.max(0, size - TAIL_BYTES);
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return { text: buffer.toString('utf8', 0, bytesRead), start };
  } finally {
    await handle.close();
  }
}

function positionOf(line: string): SinkPosition | null {
  try {
    const event = JSON.parse(line) as { metadata?: { sequence?: unknown }; attestation_list?: Array<{ chain_uid?: unknown; fingerprint?: { value?: unknown } }> };
    const attestation = event.attestation_list?.[0];
    const seq = event.metadata?.sequence;
    const chain = attestation?.chain_uid;
    const hash = attestation?.fingerprint?.value;
    if (typeof seq !== 'number' || typeof chain !== 'string' || typeof hash !== 'string') return null;
    return { chain, seq, hash, offset: 0 };
  } catch {
    return null;
  }
}

async function append(file: string, data: string): Promise<void> {
  const handle = await open(file, 'a', 0o600);
  const before = (await handle.stat()).size;
  try {
    await handle.writeFile(data, 'utf8');
    await handle.datasync();
  } catch (error) {
    // A half-written batch would glue the next one onto a torn line.
    await handle.truncate(before).catch(() => undefined);
    throw error;
  } finally {
    await handle.close();
  }
}

export function createFileSinkTarget(file: string): SinkTarget {
  return {
    name: file,
    deliver: (lines) => append(file, lines.map((line) => `${line}\n`).join('')),
    async lastDelivered() {
      const tail = await readTail(file);
      if (tail === null) return null;
      const end = tail.text.lastIndexOf('\n');
      if (end === -1 && tail.start > 0) return null; // no line end in the tail: not an event file, left alone
      if (end !== tail.text.length - 1) await truncate(file, tail.start + Buffer.byteLength(tail.text.slice(0, end + 1), 'utf8'));
      const lines = tail.text.slice(0, end + 1).split('\n').filter(Boolean);
      return lines.length === 0 ? null : positionOf(lines[lines.length - 1]!);
    },
  };
}
