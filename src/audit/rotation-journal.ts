// The journal of a `gw audit rotate` in progress, $GW_HOME/audit-rotation.json, beside the next
// key ($GW_HOME/audit-signing.key.next). Both are written (and fsync'd) before the closing record,
// so a crash at any later step leaves enough for the next start to finish the rotation (roll
// forward) or, when the closing record never landed, to undo it (roll back): never a closed chain
// whose next key is lost, never a new key nobody introduced. Also the test-only pause hook.
import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { readOptionalFile } from './read-optional-file.js';

const ROTATION_JOURNAL_FILE = 'audit-rotation.json';
export const NEXT_SIGNING_KEY_FILE = 'audit-signing.key.next';

export interface RotationJournal {
  v: 1;
  /** The chain being closed: its trail id (file store) or chain id (PostgreSQL). */
  chain: string;
  next_public_key: string;
  started_at: string;
}

/** Writes a file through a temporary one, fsync'd, renamed, and the folder fsync'd: it is there after a crash or not at all. */
export async function writeDurably(file: string, data: string, mode = 0o600): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  await syncFolder(path.dirname(file));
}

export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeIfPresent(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

export async function readRotationJournal(home: string): Promise<RotationJournal | null> {
  const bytes = await readOptionalFile(path.join(home, ROTATION_JOURNAL_FILE));
  if (bytes === undefined) return null;
  const value = JSON.parse(bytes.toString('utf8')) as Partial<RotationJournal>;
  if (value.v !== 1 || typeof value.chain !== 'string' || typeof value.next_public_key !== 'string') {
    throw new Error(`${path.join(home, ROTATION_JOURNAL_FILE)} is not a rotation journal`);
  }
  return { v: 1, chain: value.chain, next_public_key: value.next_public_key, started_at: String(value.started_at ?? '') };
}

export async function writeRotationJournal(home: string, journal: RotationJournal): Promise<void> {
  await writeDurably(path.join(home, ROTATION_JOURNAL_FILE), `${JSON.stringify(journal)}\n`);
}

/** The rotation is over: the journal goes (the next key, if still there, is stale too). */
export async function endRotation(home: string): Promise<void> {
  await removeIfPresent(path.join(home, NEXT_SIGNING_KEY_FILE));
  await removeIfPresent(path.join(home, ROTATION_JOURNAL_FILE));
  await syncFolder(home);
}

/** Puts the next key in place of audit-signing.key (one rename; audit.pub follows at the writer's start). */
export async function installNextKey(home: string): Promise<void> {
  const next = path.join(home, NEXT_SIGNING_KEY_FILE);
  if ((await readOptionalFile(next)) === undefined) return;
  await rename(next, path.join(home, 'audit-signing.key'));
  await syncFolder(home);
}

export type RotateStep = 'journal' | 'closing-record' | 'closed-checkpoint' | 'moved' | 'new-key' | 'opening-record' | 'opened';

/**
 * TEST ONLY: GW_TEST_ROTATE_PAUSE=<step> (read by gw serve's config, handed in as `pauseAt`) stops
 * a rotation at that step for ever (after saying so on stderr), so a test can kill -9 the process
 * there. Never set it in production.
 */
export async function pauseForTest(step: RotateStep, pauseAt: string | undefined): Promise<void> {
  if (pauseAt !== step) return;
  process.stderr.write(`gw: GW_TEST_ROTATE_PAUSE: rotation paused at step ${step}\n`);
  await new Promise(() => undefined);
}
