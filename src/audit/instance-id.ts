// This home's stable instance id ($GW_HOME/instance-id): the name a witness keeps this
// gateway's chains under, sent with every checkpoint. It lives beside state.json, outside
// audit/ and apart from audit.pub and audit-signing.key, so a home whose trail and keys were
// deleted (a reinstall, or an insider wiping the trail) still pushes as the same sender, and
// the witness sees that sender's old chain stop without a closing record and a new chain
// begin under a new key. Deleting the whole home makes a new sender, which looks like a new
// machine: that limit is documented in docs/audit-witness.md.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readOptionalFile } from './read-optional-file.js';
import { errorCode } from '../error-code.js';

const INSTANCE_ID_FILE = 'instance-id';
const INSTANCE_ID = /^gwi_[0-9a-f]{32}$/;

/** The home's instance id, or undefined when it has none (a home that never served with this build) or the file is not one. */
export async function readInstanceId(home: string): Promise<string | undefined> {
  const text = (await readOptionalFile(path.join(home, INSTANCE_ID_FILE)))?.toString('utf8').trim();
  return text !== undefined && INSTANCE_ID.test(text) ? text : undefined;
}

/** The home's instance id, made once (O_EXCL: two starts racing agree on the first one written). */
export async function ensureInstanceId(home: string): Promise<string> {
  const existing = await readInstanceId(home);
  if (existing !== undefined) return existing;
  const made = `gwi_${randomBytes(16).toString('hex')}`;
  try {
    await writeFile(path.join(home, INSTANCE_ID_FILE), `${made}\n`, { flag: 'wx', mode: 0o644 });
    return made;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    const raced = await readInstanceId(home);
    if (raced === undefined) throw new Error(`${path.join(home, INSTANCE_ID_FILE)} is not an instance id (gwi_ and 32 hex digits): remove it and start again`, { cause: error });
    return raced;
  }
}
