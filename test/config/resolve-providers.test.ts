import { describe, expect, it } from 'vitest';
import { resolveProviders } from '../../src/config/resolve-providers.js';
import type { ProviderRecord } from '../../src/state/schema.js';

function state(...providers: ProviderRecord[]) {
  return { providers };
}

describe('resolveProviders', () => {
  it('merges state over the environment for the same name, keeping mock last', () => {
    const resolved = resolveProviders({
      env: { OPENAI_API_KEY: 'env-key', ANTHROPIC_API_KEY: 'a' },
      state: state(
        { name: 'openai', kind: 'openai', base_url: 'https://proxy.example/v1', api_key: 'state-key' },
        { name: 'local', kind: 'openai-compatible', base_url: 'http://localhost:8000/v1', api_key: null, preset: 'vllm' },
      ),
    });
    expect(resolved.warnings).toEqual([]);
    expect(resolved.providers.map((provider) => provider.name)).toEqual(['openai', 'anthropic', 'local', 'mock']);
    expect(resolved.providers[0]).toMatchObject({ baseUrl: 'https://proxy.example/v1', apiKey: 'state-key', source: 'state', apiKeyFrom: 'state.json' });
    expect(resolved.providers[2]).toMatchObject({ apiKey: null, preset: 'vllm' });
  });

  it('resolves env:NAME from the environment it is given', () => {
    const resolved = resolveProviders({
      env: { MY_AZURE_KEY: 'z' },
      state: state({ name: 'az', kind: 'azure', base_url: 'https://r.openai.azure.com', api_key: 'env:MY_AZURE_KEY', api_version: '2025-01-01' }),
    });
    expect(resolved.providers[0]).toMatchObject({ name: 'az', apiKey: 'z', apiVersion: '2025-01-01', apiKeyFrom: 'env:MY_AZURE_KEY' });
  });

  it('skips a provider whose env:NAME is missing, with a warning, and hides the environment\'s of that name', () => {
    const resolved = resolveProviders({
      env: { OPENAI_API_KEY: 'env-key' },
      state: state({ name: 'openai', kind: 'openai', base_url: 'https://api.openai.com/v1', api_key: 'env:NOT_SET' }),
    });
    expect(resolved.providers.map((provider) => provider.name)).toEqual(['mock']);
    expect(resolved.warnings).toEqual(['provider openai (state.json): its key is env:NOT_SET, which is not set; skipped']);
  });

  it('ignores a state entry named mock, and the environment in sidecar mode', () => {
    const resolved = resolveProviders({
      env: { OPENAI_API_KEY: 'k', HUB_KEY: 'sk-gw-live' },
      state: state(
        { name: 'mock', kind: 'openai', base_url: 'http://x', api_key: null },
        { name: 'hub', kind: 'gateway', base_url: 'https://hub.example', api_key: 'env:HUB_KEY' },
      ),
      ignoreEnvironmentProviders: true,
    });
    expect(resolved.providers.map((provider) => [provider.name, provider.kind])).toEqual([['hub', 'gateway'], ['mock', 'mock']]);
    expect(resolved.warnings).toHaveLength(2);
    expect(resolved.warnings[0]).toMatch(/^sidecar mode: providers from the environment are ignored \(openai\)/);
  });

  it('refuses a gw credential as a non-gateway provider\'s key', () => {
    const resolved = resolveProviders({ env: { K: 'sk-gw-x' }, state: state({ name: 'o', kind: 'openai', base_url: 'https://a.example/v1', api_key: 'env:K' }) });
    expect(resolved.providers.map((provider) => provider.name)).toEqual(['mock']);
    expect(resolved.warnings[0]).toMatch(/gw credential/);
  });

  it('skips a hand-written state entry of kind vertex, whose project and credentials only the environment gives', () => {
    const resolved = resolveProviders({ env: {}, state: state({ name: 'v', kind: 'vertex', base_url: 'https://aiplatform.googleapis.com', api_key: null }) });
    expect(resolved.providers.map((provider) => provider.name)).toEqual(['mock']);
    expect(resolved.warnings[0]).toMatch(/configured through the environment \(GOOGLE_CLOUD_PROJECT/);
  });
});
