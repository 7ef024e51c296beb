// A witness's store: one JSON line per witnessed checkpoint, appended, never rewritten
// (O_APPEND, so lines from concurrent writers do not interleave below PIPE_BUF-sized
// writes). The file witness of `audit_witness = <path>` and the hub both keep one.
import { appendFile, readFile } from 'node:fs/promises';
import { readCheckpoint, isSignedCheckpoint } from './checkpoint.js';
import type { WitnessedCheckpoint, WitnessSender } from './compare-witness.js';

export async function appendWitnessed(file: string, entry: WitnessedCheckpoint): Promise<void> {
  await appendFile(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}

function readSender(value: unknown): WitnessSender | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { team, person, key_id: keyId, device, instance } = value as Record<string, unknown>;
  const text = (item: unknown): string | null => (typeof item === 'string' ? item : null);
  return {
    team: text(team), person: text(person), key_id: text(keyId),
    ...(typeof device === 'string' ? { device } : {}), ...(typeof instance === 'string' ? { instance } : {}),
  };
}

const INSTANCE = /^[A-Za-z0-9_.:-]{1,100}$/;

/** The instance id a pusher sent beside its checkpoint (`sender: { instance }`), or undefined when absent or malformed. */
export function readSentInstance(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const sender = (value as { sender?: unknown }).sender;
  if (typeof sender !== 'object' || sender === null) return undefined;
  const instance = (sender as { instance?: unknown }).instance;
  return typeof instance === 'string' && INSTANCE.test(instance) ? instance : undefined;
}

/** Parses one witnessed entry (a line of the log, or an item of the hub's answer); null when it is not one. */
export function readWitnessed(value: unknown): WitnessedCheckpoint | null {
  try {
    const checkpoint = readCheckpoint(value);
    if (!isSignedCheckpoint(checkpoint)) return null;
    const fields = value as Record<string, unknown>;
    const from = readSender(fields.from);
    const receivedAt = typeof fields.received_at === 'string' ? fields.received_at : '';
    return { ...checkpoint, received_at: receivedAt, ...(from ? { from } : {}) };
  } catch {
    return null;
  }
}

/** Every entry of the file, in the order received; a damaged line is skipped and counted. File errors (ENOENT too) are thrown. */
export async function readWitnessLog(file: string): Promise<{ entries: WitnessedCheckpoint[]; damaged: number }> {
  const text = await readFile(file, 'utf8');
  const entries: WitnessedCheckpoint[] = [];
  let damaged = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let value: unknown;
    try { value = JSON.parse(line); } catch { value = undefined; }
    const entry = readWitnessed(value);
    if (entry) entries.push(entry); else damaged += 1;
  }
  return { entries, damaged };
}
