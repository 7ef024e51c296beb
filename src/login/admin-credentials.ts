// Where `gw login --admin` keeps an admin token (gwa-…) for remote administration
// (`gw keys create --hub URL` …): like the personal token, in the OS keychain when one
// answers, else in a 0600 file in $GW_HOME, said plainly. $GW_HOME/admin-login.json
// records the hub and the admin token's id and name (never the token when in the keychain).
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Keychain } from './keychain.js';

const ADMIN_LOGIN_FILE = 'admin-login.json';

export interface AdminLoginRecord {
  hub: string;
  id: string;
  name: string;
  store: 'keychain' | 'file';
  token?: string;
}

const account = (hub: string) => `admin|${hub}`;

export class AdminCredentialStore {
  readonly file: string;

  constructor(home: string, private readonly keychain: Keychain | null) {
    this.file = path.join(home, ADMIN_LOGIN_FILE);
  }

  async save(input: { hub: string; id: string; name: string; token: string }): Promise<{ where: string; notice: string | null }> {
    await this.remove();
    let reason = 'no keychain is configured';
    if (this.keychain) {
      try {
        await this.keychain.set(account(input.hub), input.token);
        await writePrivate(this.file, { hub: input.hub, id: input.id, name: input.name, store: 'keychain' });
        return { where: 'the system keychain', notice: null };
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
    }
    await writePrivate(this.file, { hub: input.hub, id: input.id, name: input.name, store: 'file', token: input.token });
    return { where: this.file, notice: `no keychain answered (${reason}): the admin token is saved in plain text at ${this.file} (mode 0600)` };
  }

  /** The stored admin token for this hub, or null. */
  async tokenFor(hub: string): Promise<string | null> {
    let record: AdminLoginRecord;
    try {
      const info = await stat(this.file);
      if ((info.mode & 0o077) !== 0) return null;
      record = JSON.parse(await readFile(this.file, 'utf8')) as AdminLoginRecord;
    } catch {
      return null;
    }
    if (record.hub !== hub) return null;
    if (record.store === 'file') return typeof record.token === 'string' ? record.token : null;
    return this.keychain ? this.keychain.get(account(hub)).catch(() => null) : null;
  }

  async remove(): Promise<boolean> {
    try {
      const record = JSON.parse(await readFile(this.file, 'utf8')) as AdminLoginRecord;
      if (record.store === 'keychain' && this.keychain) await this.keychain.delete(account(record.hub)).catch(() => false);
    } catch {
      return false;
    }
    await rm(this.file, { force: true });
    return true;
  }
}

async function writePrivate(file: string, value: AdminLoginRecord): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}
