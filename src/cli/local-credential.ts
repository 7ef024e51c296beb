// The credential a local tool gets from this gateway: the session key (session-key.ts) in the
// team that serves local calls, or any value on a sidecar. `gw token` prints it and `gw run` hands
// it to the tool; kept apart from commands/run.ts so `gw token` loads none of the tool launching.
import { CliExit, type CliContext } from './cli-context.js';
import type { LocalGateway } from './local-gateway.js';
import { getLocal } from './local-get.js';
import { SIDECAR_CREDENTIAL } from './serve-banner.js';
import { sessionKey } from './session-key.js';
import { withStore } from './state-command.js';

const NO_TEAM = 'this gateway has no team yet: start it once (gw serve) or create one (gw teams create NAME)';
/** How long a gateway gw run has just started may take to write its first team into state.json. */
const TEAM_WAIT_MS = 5_000;

/** The session key (session-key.ts) in the team that serves local calls. */
async function shortLivedKey(context: CliContext, home: string): Promise<string> {
  const deadline = Date.now() + TEAM_WAIT_MS;
  for (;;) {
    const key = await withStore(context, home, async (store) => {
      const state = store.snapshot();
      const team = state.settings.default_team ?? state.teams.find((entry) => entry.name === 'local')?.name ?? state.teams[0]?.name;
      return team === undefined ? null : sessionKey(store, context.home(home), team);
    });
    if (key !== null) return key;
    // A gateway started in the background answers before its bootstrap is always on disk under load.
    if (Date.now() > deadline) throw new CliExit(1, NO_TEAM);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function credentialFor(gateway: LocalGateway, context: CliContext, home: string): Promise<string> {
  if (gateway.sidecar) return SIDECAR_CREDENTIAL;
  const key = await shortLivedKey(context, home);
  // The running gateway reads state.json about four times a second: the tool's first call must not beat it.
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const answer = await getLocal(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` }, timeoutMs: 2_000 }).catch(() => null);
    if (answer && answer.status !== 401) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return key;
}

