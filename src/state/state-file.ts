// Reading and writing state.json on disk. Writes go to a temp file in the same
// folder and are renamed over the old file, so a reader (or a crash) sees the
// old state or the new one, never half of either.
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { parseStateText } from './parse-state.js';
import { emptyState, type StateData } from './schema.js';
import { errorCode, toAccessError } from './state-errors.js';

export const STATE_FILE_NAME = 'state.json';
const FILE_MODE = 0o600;
const HOME_MODE = 0o700;

/** lowdb adapter: a missing file reads as the empty state; a broken one throws StateFileError. */
export class StateFileAdapter implements Adapter<StateData> {
  constructor(readonly file: string) {}

  async read(): Promise<StateData> {
    const text = await readStateText(this.file);
    return text === null ? emptyState() : parseStateText(text, this.file);
  }

  async write(data: StateData): Promise<void> {
    await writeFileAtomically(this.file, `${JSON.stringify(data, null, 2)}\n`);
  }
}

async function readStateText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw toAccessError('read', file, error);
  }
}

/** Creates the home folder 0700; tightens an existing state.json to 0600 (it holds key hashes). */
export async function prepareHome(home: string): Promise<void> {
  try {
    await mkdir(home, { recursive: true, mode: HOME_MODE });
  } catch (error) {
    throw toAccessError('write', home, error);
  }
  const file = path.join(home, STATE_FILE_NAME);
  try {
    const info = await stat(file);
    if ((info.mode & 0o777) !== FILE_MODE) await chmod(file, FILE_MODE);
  } catch (error) {
    // A missing file is created on first write; a file we may not chmod is still readable.
    if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'EPERM') throw toAccessError('write', file, error);
  }
}

export async function writeFileAtomically(file: string, text: string | Buffer): Promise<void> {
  const folder = path.dirname(file);
  const temp = path.join(folder, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', FILE_MODE);
    try {
      await handle.writeFile(text);
      // Without fsync, a power cut after the rename can leave an empty file.
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw toAccessError('write', folder, error);
  }
}

export interface FileSignature {
  /** Changes whenever the file is replaced or rewritten; cheap enough to poll. */
  key: string;
  /** The file's modification time in ns ('0' when missing): each write renames a newer file into place, so it only grows. */
  mtimeNs: string;
}

export async function fileSignature(file: string): Promise<FileSignature> {
  try {
    const info = await stat(file, { bigint: true });
    return { key: `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`, mtimeNs: String(info.mtimeNs) };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { key: 'missing', mtimeNs: '0' };
    throw toAccessError('read', file, error);
  }
}

/**
 * A secret file in the home, 0600. Two processes starting together must end with the same bytes,
 * and neither may read the file half-written: the bytes go to a file of this process's own, which
 * is then hard-linked to the name (create-if-absent, all at once). The first link wins; the other
 * finds it there (EEXIST) and reads the winner's whole file.
 */
export async function loadOrCreateSecretFile(file: string, bytes: number): Promise<Buffer> {
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(own, randomBytes(bytes), { mode: FILE_MODE, flag: 'wx' });
    await link(own, file);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw toAccessError('write', file, error);
  } finally {
    await rm(own, { force: true }).catch(() => undefined);
  }
  const secret = await readFile(file);
  if (secret.length !== bytes) throw new Error(`${file} holds ${secret.length} bytes, expected ${bytes}: restore it from a backup`);
  return secret;
}
