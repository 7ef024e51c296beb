// A setting changed by an admin token (the admin API's settings route, or `gw settings set
// --hub`): what the hub's own shell may set, minus what would reach past the state into the
// hub's machine. A witness file is a path there; an `env:NAME` names a variable there (the
// OIDC client secret is one). And a secret the hub holds is bound to the host it was set for:
// moving oidc_issuer to another host drops oidc_client_secret, and the answer says so, since
// the hub would otherwise send its client secret to whatever the new issuer names.
import { SETTING_DEFINITIONS, assertSettingName, type SettingName } from '../state/settings.js';
import { hostOf } from '../state/bound-host.js';
import type { Settings } from '../state/schema.js';
import { StateRefusedError } from '../state/state-errors.js';
import type { StateUpdater } from '../state/state-updater.js';

/** A file witness is a path the hub would append to: set in the hub's own shell, never over the API. */
const isRemoteWitness = (value: string): boolean => value.trim() === 'none' || /^https?:\/\//i.test(value.trim());
const FILE_WITNESS_REFUSED = 'audit_witness as a file names a path on the hub\'s machine: set it in the hub\'s shell; remotely, a witness is an https:// URL or none';
const SINK_REFUSED = 'audit_sink is set in the hub\'s shell: where the trail streams, and the token it carries there, is not an admin token\'s to move';
const ENV_SETTING_REFUSED = 'a value with "env:" names an environment variable of the hub: set it in the hub\'s shell; remotely, oidc_client_secret can only be cleared (none)';

export class RemoteSettingRefused extends Error {}

/** Why an admin token may not set this value, or null. */
export function refuseRemoteSetting(name: string, text: string): string | null {
  if (name === 'audit_witness' && !isRemoteWitness(text)) return FILE_WITNESS_REFUSED;
  if (name === 'audit_sink' || name === 'audit_sink_token') return SINK_REFUSED;
  if (/env:/i.test(text) || (name === 'oidc_client_secret' && text.trim() !== 'none')) return ENV_SETTING_REFUSED;
  return null;
}

/** Sets one setting for an admin token; `notes` says what else changed (a secret dropped). */
export async function setSettingRemotely(store: StateUpdater, name: string, text: string): Promise<{ name: SettingName; value: Settings[SettingName]; notes: string[] }> {
  const settingName = assertSettingName(name);
  const refusal = refuseRemoteSetting(settingName, text);
  if (refusal !== null) throw new RemoteSettingRefused(refusal);
  const definition = SETTING_DEFINITIONS[settingName] as { parse(text: string): Settings[SettingName]; verify?(value: Settings[SettingName], state: never): string | null };
  const value = definition.parse(text);
  return store.update((draft) => {
    const problem = definition.verify?.(value, draft as never) ?? null;
    if (problem !== null) throw new StateRefusedError(`cannot set ${settingName}: ${problem}`);
    const notes: string[] = [];
    if (settingName === 'oidc_issuer' && draft.settings.oidc_client_secret !== null && issuerHost(value) !== issuerHost(draft.settings.oidc_issuer)) {
      draft.settings.oidc_client_secret = null;
      notes.push('oidc_client_secret = none (it was set for the previous issuer\'s host: set it again in the hub\'s shell)');
    }
    (draft.settings as unknown as Record<string, unknown>)[settingName] = value;
    return { name: settingName, value, notes };
  });
}

function issuerHost(value: unknown): string | null {
  return typeof value === 'string' ? hostOf(value) : null;
}
