// Which mode `gw serve` starts in (DESIGN.md, "Modes"): sidecar when GW_TOKEN is
// set or `gw login` stored a token, standalone/hub otherwise or with --standalone.
import { readTokenEnvironment } from '../config/login-env.js';
import { CredentialStore } from '../login/credential-store.js';
import { systemKeychain } from '../login/keychain.js';
import { toSidecarLogin } from '../login/stored-login-reader.js';
import type { SidecarLogin } from '../sidecar/hub-session.js';
import { CliExit } from './cli-context.js';

export async function findSidecarLogin(home: string, env: NodeJS.ProcessEnv): Promise<SidecarLogin | null> {
  const store = new CredentialStore(home, systemKeychain());
  const fromEnvironment = readTokenEnvironment(env);
  if (fromEnvironment) {
    const record = await store.readRecord().catch(() => null);
    const hub = fromEnvironment.hub ?? record?.hub ?? null;
    if (hub === null) throw new CliExit(1, 'GW_TOKEN is set but no hub is known: set GW_HUB=https://your-hub too');
    return { hub, token: fromEnvironment.token, person: null, team: null, source: 'GW_TOKEN' };
  }
  try {
    const stored = await store.load();
    if (stored === null) return null;
    return toSidecarLogin(stored);
  } catch (error) {
    throw new CliExit(1, `${error instanceof Error ? error.message : String(error)} (or start with --standalone)`);
  }
}
