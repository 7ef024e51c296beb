import { describe, expect, it } from 'vitest';
import { refuseSelfPointing } from '../../src/config/refuse-self-pointing.js';
import type { ProviderConfig } from '../../src/providers/provider-adapter.js';

const machine = { hostname: 'devbox', addresses: ['127.0.0.1', '192.168.1.20', '::1'] };

function provider(name: string, baseUrl: string, extra: Partial<ProviderConfig> = {}): ProviderConfig {
  return { name, kind: 'anthropic', baseUrl, apiKey: null, source: 'environment', ...extra };
}

function keptNames(providers: ProviderConfig[], host = '127.0.0.1', port = 8080): string[] {
  return refuseSelfPointing(providers, { host, port }, machine).providers.map((entry) => entry.name);
}

describe('refuseSelfPointing', () => {
  it('drops loopback, wildcard and hostname URLs on gw\'s own port', () => {
    const urls = ['http://localhost:8080', 'http://127.0.0.1:8080/v1', 'http://[::1]:8080', 'http://0.0.0.0:8080', 'http://devbox:8080', 'http://127.0.1.1:8080', 'http://LOCALHOST:8080/'];
    expect(keptNames(urls.map((url, index) => provider(`p${index}`, url)))).toEqual([]);
  });

  it('keeps other ports, other hosts, and the mock', () => {
    const kept = keptNames([
      provider('a', 'http://localhost:8081'), provider('b', 'https://api.anthropic.com'), provider('c', 'http://localhost'),
      provider('mock', 'mock:', { kind: 'mock', source: 'built-in' }),
    ]);
    expect(kept).toEqual(['a', 'b', 'c', 'mock']);
  });

  it('counts the machine\'s addresses only when gw listens on every interface', () => {
    const lan = [provider('lan', 'http://192.168.1.20:8080')];
    expect(keptNames(lan, '127.0.0.1')).toEqual(['lan']);
    expect(keptNames(lan, '0.0.0.0')).toEqual([]);
  });

  it('says which variable to unset', () => {
    const result = refuseSelfPointing(
      [provider('anthropic', 'http://localhost:8080', { baseUrlFrom: 'ANTHROPIC_BASE_URL' }), provider('mine', 'http://127.0.0.1:8080', { source: 'state' })],
      { host: '127.0.0.1', port: 8080 }, machine,
    );
    expect(result.warnings).toEqual([
      'provider anthropic: ANTHROPIC_BASE_URL=http://localhost:8080 points at this gw itself; skipped (unset it in the shell that runs gw serve, or run gw on another port than 8080)',
      'provider mine: base URL http://127.0.0.1:8080 in state.json points at this gw itself; skipped (gw providers remove mine, or run gw on another port than 8080)',
    ]);
  });
});
