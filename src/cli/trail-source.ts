// Where `gw audit export` reads a chain from: the home's file trail (audit/audit.jsonl and
// its checkpoint) or one chain of the PostgreSQL store. The checkpoint is read before the
// log, as verify does: a running writer replaces it only after the log write, so the lines
// read afterwards reach it.
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { AUDIT_CHECKPOINT_FILE, AUDIT_LOG_FILE } from '../audit/audit-trail.js';
import { parseCheckpoint, type Checkpoint } from '../audit/checkpoint.js';
import { CliExit } from './cli-context.js';
import { errorCode } from '../error-code.js';
import { errorMessage } from '../error-message.js';

export interface TrailSource {
  /** What the chain is called in messages. */
  name: string;
  checkpoint: Checkpoint | null;
  lines: AsyncIterable<string>;
}

async function readCheckpointFile(file: string): Promise<Checkpoint | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw new CliExit(2, `cannot read ${file}: ${errorMessage(error)}`);
  }
  try {
    return parseCheckpoint(text);
  } catch (error) {
    throw new CliExit(2, `${file}: ${errorMessage(error)} (gw audit verify says more)`);
  }
}

/** The complete lines present now: a line still being appended (no "\n" yet) is left out. */
async function* completeLines(file: string): AsyncGenerator<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return;
    const input = handle.createReadStream({ start: 0, end: size - 1, autoClose: false });
    let pending: string | undefined;
    for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
      if (pending !== undefined) yield pending;
      pending = line;
    }
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (pending !== undefined && last[0] === 0x0a) yield pending;
  } finally {
    await handle.close();
  }
}

export async function fileTrailSource(home: string): Promise<TrailSource> {
  const folder = path.join(home, 'audit');
  const file = path.join(folder, AUDIT_LOG_FILE);
  const checkpoint = await readCheckpointFile(path.join(folder, AUDIT_CHECKPOINT_FILE));
  try {
    await (await open(file, 'r')).close();
  } catch (error) {
    const missing = errorCode(error) === 'ENOENT';
    throw new CliExit(2, missing ? `no audit trail yet in ${folder}: gw serve writes one there (or name a PostgreSQL store with --store)` : `cannot read ${file}: ${errorMessage(error)}`);
  }
  return { name: file, checkpoint, lines: completeLines(file) };
}
