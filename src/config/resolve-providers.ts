// The providers a gw process uses: the environment's, then state.json's (which
// win for the same name, DESIGN.md "Formats and providers"), then the built-in
// mock. A state key written as `env:NAME` is read from the same environment.
import { readEnvReference } from '../state/providers.js';
import type { ProviderRecord } from '../state/schema.js';
import { boundHostAllows } from '../state/bound-host.js';
import type { ProviderConfig } from '../providers/provider-adapter.js';
import { MOCK_PROVIDER, isHttpUrl, readProviderEnvironment, type Environment } from './providers-from-env.js';

export interface ResolveProvidersInput {
  env: Environment;
  state: { providers: readonly ProviderRecord[] };
  /** Sidecar mode: the environment's provider keys must not bypass the hub (DESIGN.md, "Modes"). */
  ignoreEnvironmentProviders?: boolean;
}

export interface ResolvedProviders {
  providers: ProviderConfig[];
  warnings: string[];
}

export function resolveProviders(input: ResolveProvidersInput): ResolvedProviders {
  const reading = readProviderEnvironment(input.env);
  const warnings = [...reading.warnings];
  let fromEnvironment = reading.providers.filter((provider) => provider.kind !== 'mock');
  if (input.ignoreEnvironmentProviders && fromEnvironment.length > 0) {
    const names = fromEnvironment.map((provider) => provider.name).join(', ');
    warnings.push(`sidecar mode: providers from the environment are ignored (${names}); add one with gw providers add to use it locally`);
    fromEnvironment = [];
  }
  const merged = new Map<string, ProviderConfig | null>(fromEnvironment.map((provider) => [provider.name, provider]));
  for (const record of input.state.providers) {
    if (record.name === 'mock') {
      warnings.push('provider mock in state.json: "mock" is the built-in provider; entry ignored');
      continue;
    }
    const resolved = resolveStateRecord(record, input.env);
    if (typeof resolved === 'string') warnings.push(resolved);
    // An unusable state entry still hides the environment's provider of that name: the user chose state.
    merged.set(record.name, typeof resolved === 'string' ? null : resolved);
  }
  const providers = [...merged.values()].filter((provider): provider is ProviderConfig => provider !== null);
  return { providers: [...providers, { ...MOCK_PROVIDER }], warnings };
}

function resolveStateRecord(record: ProviderRecord, env: Environment): ProviderConfig | string {
  const where = `provider ${record.name} (state.json)`;
  if (!isHttpUrl(record.base_url)) return `${where}: base_url is not an http(s) URL; skipped`;
  // Its project, location and Google credentials come from the environment (providers-from-env.ts).
  if (record.kind === 'vertex') return `${where}: a vertex provider is configured through the environment (GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION, GOOGLE_APPLICATION_CREDENTIALS); skipped`;
  // A key goes only to the host it was set for (src/state/bound-host.ts).
  if (record.api_key !== null && !boundHostAllows(record.key_host, record.base_url)) {
    return `${where}: its key was set for ${record.key_host}, and base_url now names another host; skipped (give the key again: gw providers remove ${record.name}, then add it)`;
  }
  const key = resolveStateKey(record.api_key, env);
  if (key.missing !== undefined) return `${where}: its key is env:${key.missing}, which is not set; skipped`;
  if (key.value !== null && record.kind !== 'gateway' && /^(sk-gw-|atu-)/.test(key.value)) {
    return `${where}: its key is a gw credential (sk-gw-…/atu-…), not a provider key; skipped`;
  }
  return {
    name: record.name,
    kind: record.kind,
    baseUrl: record.base_url.replace(/\/+$/, ''),
    apiKey: key.value,
    ...(record.api_version === undefined ? {} : { apiVersion: record.api_version }),
    ...(record.preset === undefined ? {} : { preset: record.preset }),
    ...(record.takes === undefined ? {} : { takes: record.takes }),
    source: 'state',
    baseUrlFrom: 'state.json',
    ...(record.api_key === null ? {} : { apiKeyFrom: key.reference ?? 'state.json' }),
  };
}

function resolveStateKey(apiKey: string | null, env: Environment): { value: string | null; reference?: string; missing?: string } {
  if (apiKey === null) return { value: null };
  const variable = readEnvReference(apiKey);
  if (variable === null) return { value: apiKey };
  const value = env[variable]?.trim();
  return value ? { value, reference: `env:${variable}` } : { value: null, missing: variable };
}
