// A file that may not exist yet (a checkpoint before the first commit, a key from before
// signing, a trust file not yet seeded): its bytes, or undefined when it is absent. Any other
// error (permissions, a folder in its place) is thrown: absent and unreadable differ.
import { readFile } from 'node:fs/promises';
import { errorCode } from '../error-code.js';

export async function readOptionalFile(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
