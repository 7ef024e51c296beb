// What a running sidecar reads every ~2 s to follow `gw login` / `gw logout`
// (src/sidecar/hub-session.ts). The non-secret login.json is read each time (a stat
// and a small file); the keychain is asked only when that record changed, since
// each keychain call may start a helper process.
import type { LoginReading, SidecarLogin } from '../sidecar/hub-session.js';
import type { CredentialStore, StoredLogin } from './credential-store.js';

export function toSidecarLogin(stored: StoredLogin): SidecarLogin {
  return { hub: stored.login.hub, token: stored.token, person: stored.login.person, team: stored.login.team, source: stored.where };
}

export function createStoredLoginReader(store: CredentialStore): () => Promise<LoginReading> {
  let lastRecord: string | null = null;
  let lastReading: LoginReading | null = null;
  return async () => {
    try {
      const record = await store.readRecord();
      if (record === null) {
        lastRecord = null;
        return { kind: 'none' };
      }
      const fingerprint = JSON.stringify(record);
      if (fingerprint === lastRecord && lastReading !== null) return lastReading;
      const stored = await store.load();
      lastReading = stored === null ? { kind: 'none' } : { kind: 'login', login: toSidecarLogin(stored) };
      lastRecord = fingerprint;
      return lastReading;
    } catch (error) {
      // Never the token: these messages name the file and what to do.
      lastRecord = null;
      return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) };
    }
  };
}
