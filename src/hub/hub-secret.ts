// The 32-byte hub secret live keys are derived from (src/state/live-keys.ts) and that
// signs session credentials (session-credential.ts). It lives with the state, because
// every instance of a hub must share it: $GW_HOME/hub.key on the embedded store, a row
// of gw_secrets on PostgreSQL. Created once; the first writer wins.
import type { StateStore } from '../state/state-store.js';

export const HUB_SECRET_NAME = 'hub.key';
const SECRET_BYTES = 32;

export function loadOrCreateHubSecret(store: Pick<StateStore, 'loadOrCreateSecret'>): Promise<Buffer> {
  return store.loadOrCreateSecret(HUB_SECRET_NAME, SECRET_BYTES);
}
