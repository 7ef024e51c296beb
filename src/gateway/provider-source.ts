// The providers in force: environment + state.json + the built-in mock, minus any
// that point back at this gw. Re-resolved whenever state.json changes, so
// `gw providers add` takes effect without a restart.
import { refuseSelfPointing, type ListenAddress } from '../config/refuse-self-pointing.js';
import { resolveProviders } from '../config/resolve-providers.js';
import { resolveRouteKeys } from '../config/resolve-route-keys.js';
import type { ProviderSet } from '../pipeline/gateway-services.js';
import type { ProviderConfig } from '../providers/provider-adapter.js';
import type { StateData } from '../state/schema.js';
import type { StateStore } from '../state/state-store.js';

export interface ProviderSource {
  current: () => ProviderSet;
  listenOn(address: ListenAddress): void;
}

/** Sidecar mode: environment providers ignored, the hub added as a `gateway` provider. */
export interface ProviderSourceOptions {
  ignoreEnvironmentProviders?: boolean;
  extraProviders?: readonly ProviderConfig[];
}

export function createProviderSource(state: StateStore, env: Record<string, string | undefined>, listen: ListenAddress, options: ProviderSourceOptions = {}): ProviderSource {
  let address = listen;
  const resolve = (data: StateData): ProviderSet => {
    const resolved = resolveProviders({ env, state: data, ignoreEnvironmentProviders: options.ignoreEnvironmentProviders ?? false });
    const kept = refuseSelfPointing(resolved.providers, address);
    // A provider added with gw providers add keeps its name; the hub does not hide it.
    const extra = (options.extraProviders ?? []).filter((provider) => !kept.providers.some((existing) => existing.name === provider.name));
    // Routing targets' own keys (gw routes add … --target provider/model@env:NAME).
    const routeKeys = resolveRouteKeys(data.routes ?? [], env, [...kept.providers, ...extra]);
    return { providers: [...kept.providers, ...extra], aliases: data.aliases, warnings: [...resolved.warnings, ...kept.warnings, ...routeKeys.warnings], routeKeys: routeKeys.keys };
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
