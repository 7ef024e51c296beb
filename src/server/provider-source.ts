// The providers in force: environment + state.json + the built-in mock, minus any
// that point back at this gw. Re-resolved whenever state.json changes, so
// `gw providers add` takes effect without a restart.
import { refuseSelfPointing, type ListenAddress } from '../config/refuse-self-pointing.js';
import { resolveProviders } from '../config/resolve-providers.js';
import type { ProviderSet } from '../pipeline/gateway-services.js';
import type { StateData } from '../state/schema.js';
import type { StateStore } from '../state/state-store.js';

export interface ProviderSource {
  current(): ProviderSet;
  listenOn(address: ListenAddress): void;
}

export function createProviderSource(state: StateStore, env: Record<string, string | undefined>, listen: ListenAddress): ProviderSource {
  let address = listen;
  const resolve = (data: StateData): ProviderSet => {
    const resolved = resolveProviders({ env, state: data });
    const kept = refuseSelfPointing(resolved.providers, address);
    return { providers: kept.providers, aliases: data.aliases, warnings: [...resolved.warnings, ...kept.warnings] };
  };
  let current = resolve(state.snapshot());
  state.onChange((data) => { current = resolve(data); });
  return {
    current: () => current,
    listenOn(next) {
      address = next;
      current = resolve(state.snapshot());
    },
  };
}
