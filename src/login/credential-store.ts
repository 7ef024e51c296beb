// Where `gw login` keeps the personal token (research C4): GW_TOKEN overrides
// everything and is never written; otherwise the OS keychain; where no keychain
// answers (headless Linux, CI), a 0600 file in $GW_HOME, said plainly. A
// non-secret $GW_HOME/login.json records the hub, person, team and which store
// holds the token, so `gw whoami` and `gw serve` find it.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Keychain } from './keychain.js';
import { errorCode } from '../error-code.js';

const LOGIN_FILE = 'login.json';

export interface LoginRecord {
  hub: string;
  person: string | null;
  team: string | null;
  created_at: string;
  store: 'keychain' | 'file';
  /** Only when store is 'file'. */
  token?: string;
}

export interface StoredLogin {
  login: LoginRecord;
  token: string;
  /** For people: "the system keychain", or the file's path. */
  where: string;
}

class CredentialFileError extends Error {}

function accountFor(login: Pick<LoginRecord, 'hub' | 'person'>): string {
  return `${login.hub}|${login.person ?? 'token'}`;
}

async function writePrivateFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

export class CredentialStore {
  readonly file: string;

  constructor(readonly home: string, private readonly keychain: Keychain | null) {
    this.file = path.join(home, LOGIN_FILE);
  }

  /** Stores the token; `notice` is set when it went to the plain-text file. */
  async save(input: { hub: string; token: string; person: string | null; team: string | null; now: Date }): Promise<{ where: string; notice: string | null }> {
    const base = { hub: input.hub, person: input.person, team: input.team, created_at: input.now.toISOString() };
    await this.remove();
    let reason = 'no keychain is configured';
    if (this.keychain) {
      try {
        await this.keychain.set(accountFor(base), input.token);
        await writePrivateFile(this.file, `${JSON.stringify({ ...base, store: 'keychain' }, null, 2)}\n`);
        return { where: 'the system keychain', notice: null };
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
    }
    await writePrivateFile(this.file, `${JSON.stringify({ ...base, store: 'file', token: input.token }, null, 2)}\n`);
    return { where: this.file, notice: `no keychain answered (${reason}): the token is saved in plain text at ${this.file} (mode 0600)` };
  }

  /** The stored login, or null when there is none. Refuses a file others can read. */
  async load(): Promise<StoredLogin | null> {
    const login = await this.readRecord();
    if (login === null) return null;
    if (login.store === 'file') {
      if (typeof login.token !== 'string') throw new CredentialFileError(`${this.file} has no token: run gw login`);
      return { login, token: login.token, where: this.file };
    }
    const token = this.keychain ? await this.keychain.get(accountFor(login)).catch(() => null) : null;
    if (token === null) throw new CredentialFileError(`the keychain did not give back the token ${this.file} points to: run gw login`);
    return { login, token, where: 'the system keychain' };
  }

  async readRecord(): Promise<LoginRecord | null> {
    let text: string;
    try {
      const info = await stat(this.file);
      // ssh's rule: a credential file others can read is not used.
      if ((info.mode & 0o077) !== 0) {
        throw new CredentialFileError(`${this.file} can be read by other users (mode ${(info.mode & 0o777).toString(8)}): run chmod 600 ${this.file}`);
      }
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    const record = JSON.parse(text) as LoginRecord;
    if (typeof record.hub !== 'string' || (record.store !== 'keychain' && record.store !== 'file')) throw new CredentialFileError(`${this.file} is not a gw login record: remove it and run gw login`);
    return record;
  }

  /** Deletes the token from the keychain and the file; true when there was something to delete. */
  async remove(): Promise<boolean> {
    const login = await this.readRecord().catch(() => null);
    if (login?.store === 'keychain' && this.keychain) await this.keychain.delete(accountFor(login)).catch(() => false);
    const existed = await stat(this.file).then(() => true, () => false);
    await rm(this.file, { force: true });
    return existed;
  }
}
