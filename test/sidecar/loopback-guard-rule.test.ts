// The local guard's rule (who is guarded) and the bind-address check, as pure code.
import { describe, expect, it } from 'vitest';
import { isGuarded, isLoopbackAddress, type GuardScope } from '../../src/sidecar/loopback-guard.js';

function scope(overrides: Partial<Omit<GuardScope, 'servesDefaultIdentity' | 'ownCredential'>> & { defaultIdentity?: boolean; credential?: boolean }): GuardScope {
  return {
    loopbackOnly: overrides.loopbackOnly ?? false,
    servesCalls: overrides.servesCalls ?? true,
    servesDefaultIdentity: () => overrides.defaultIdentity ?? false,
    ownCredential: () => overrides.credential ?? false,
  };
}

describe('isGuarded', () => {
  it('a sidecar guards everything: calls with or without a key, and /health', () => {
    expect(isGuarded(scope({ loopbackOnly: true }))).toBe(true);
    expect(isGuarded(scope({ loopbackOnly: true, credential: true }))).toBe(true);
    expect(isGuarded(scope({ loopbackOnly: true, servesCalls: false }))).toBe(true);
  });

  it('otherwise, only a call that would be served on the default identity', () => {
    expect(isGuarded(scope({ defaultIdentity: true }))).toBe(true);
    expect(isGuarded(scope({ defaultIdentity: true, credential: true }))).toBe(false);
    expect(isGuarded(scope({ defaultIdentity: false }))).toBe(false);
    expect(isGuarded(scope({ defaultIdentity: true, servesCalls: false }))).toBe(false);
  });

  it('reads the credential only when the answer depends on it', () => {
    let reads = 0;
    isGuarded({ loopbackOnly: false, servesCalls: true, servesDefaultIdentity: () => false, ownCredential: () => { reads += 1; return false; } });
    isGuarded({ loopbackOnly: true, servesCalls: true, servesDefaultIdentity: () => true, ownCredential: () => { reads += 1; return false; } });
    expect(reads).toBe(0);
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])('%s is loopback', (host) => {
    expect(isLoopbackAddress(host)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '[::]', '10.0.0.5', '192.168.1.2', 'example.com', 'localhost.example.com', '128.0.0.1'])('%s is not', (host) => {
    expect(isLoopbackAddress(host)).toBe(false);
  });
});
