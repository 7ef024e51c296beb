// A credential goes only to the host it was set for (issue 26): a provider's key, a routing
// target's own key and an MCP server's headers, each checked where it is resolved, whatever
// changed the URL since (an edited state.json, an import, a change made on another instance).
import { describe, expect, it } from 'vitest';
import { resolveProviders } from '../../src/config/resolve-providers.js';
import { resolveRouteKeys } from '../../src/config/resolve-route-keys.js';
import { UpstreamServers } from '../../src/mcp/upstream-servers.js';
import type { ProviderConfig } from '../../src/providers/provider-adapter.js';
import type { RouteRule } from '../../src/routing/route-rule.js';

const provider = (name: string, baseUrl: string): ProviderConfig => ({ name, kind: 'openai', baseUrl, apiKey: null, source: 'state' });

describe('a provider key', () => {
  it('is used where its base URL still names the host it was set for', () => {
    const resolved = resolveProviders({ env: { K: 'secret' }, state: { providers: [{ name: 'p', kind: 'openai', base_url: 'https://api.example:8443/v1', api_key: 'env:K', key_host: 'api.example:8443' }] } });
    expect(resolved.warnings).toEqual([]);
    expect(resolved.providers[0]).toMatchObject({ name: 'p', apiKey: 'secret' });
  });

  it('is not sent to another host: the provider is skipped, and the warning names no value', () => {
    const resolved = resolveProviders({ env: { K: 'secret' }, state: { providers: [{ name: 'p', kind: 'openai', base_url: 'https://elsewhere.example/v1', api_key: 'env:K', key_host: 'api.example' }] } });
    expect(resolved.providers.map((entry) => entry.name)).toEqual(['mock']);
    expect(resolved.warnings.join('\n')).toContain('its key was set for api.example');
    expect(resolved.warnings.join('\n')).not.toContain('secret');
  });
});

describe('a routing target\'s own key', () => {
  const route = (targets: RouteRule['targets']): RouteRule => ({ name: 'r', targets });

  it('is resolved for its provider at the host it was set for', () => {
    const { keys, warnings } = resolveRouteKeys([route([{ model: 'p/m', weight: 1, key: 'env:K', key_host: 'api.example' }])], { K: 'secret' }, [provider('p', 'https://api.example/v1')]);
    expect(warnings).toEqual([]);
    expect(keys).toEqual({ 'env:K': 'secret' });
  });

  it('is left out when its provider moved, for every target that writes the same key', () => {
    const { keys, warnings } = resolveRouteKeys([
      route([{ model: 'p/m', weight: 1, key: 'env:K', key_host: 'api.example' }, { model: 'q/m', weight: 1, key: 'env:K', key_host: 'api.example' }]),
    ], { K: 'secret' }, [provider('p', 'https://api.example/v1'), provider('q', 'https://theirs.example/v1')]);
    expect(keys).toEqual({});
    expect(warnings.join('\n')).toContain('q/m\'s key was set for api.example');
  });

  it('is left out when its provider is gone', () => {
    expect(resolveRouteKeys([route([{ model: 'p/m', weight: 1, key: 'literal', key_host: 'api.example' }])], {}, []).keys).toEqual({});
  });
});

describe('an MCP server\'s headers', () => {
  it('are not sent to another host: the server is not connected, and says why', async () => {
    const upstream = new UpstreamServers(() => [{
      name: 'gh', transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'env:GH' }, credential_host: 'api.github.example', created_at: '2026-01-01T00:00:00Z',
    }], { GH: 'secret' });
    try {
      await expect(upstream.client('gh')).rejects.toThrow('its headers were set for api.github.example');
    } finally {
      await upstream.close();
    }
  });
});
