// What a team's member receives at GET /managed/settings (src/hub/managed-settings.ts): the
// team's settings or everyone's, the allow-list's exact Anthropic models, the telemetry endpoint,
// and a checksum that depends on the content, not on the order the admin wrote keys in.
import { describe, expect, it } from 'vitest';
import { managedSettingsFor } from '../../src/hub/managed-settings.js';
import { emptyState, type StateData } from '../../src/state/schema.js';

const HUB = 'https://gw.example.internal';

function stateWith(settings: StateData['claude_settings'], policies: StateData['policies'] = []): StateData {
  return { ...emptyState(), teams: [{ name: 'eng', created_at: '2026-01-01T00:00:00Z' }, { name: 'ml', created_at: '2026-01-01T00:00:00Z' }], claude_settings: settings, policies };
}

const at = '2026-12-07T00:00:00Z';

describe('managed settings', () => {
  it('a team\'s own settings win over everyone\'s; without either there are none', () => {
    const state = stateWith([{ scope: '*', settings: { model: 'sonnet' }, updated_at: at }, { scope: 'team:eng', settings: { model: 'opus' }, updated_at: at }]);
    expect(managedSettingsFor(state, 'eng', HUB)).toMatchObject({ scope: 'team:eng', settings: { model: 'opus' } });
    expect(managedSettingsFor(state, 'ml', HUB)).toMatchObject({ scope: '*', settings: { model: 'sonnet' } });
    expect(managedSettingsFor(stateWith([]), 'eng', HUB)).toBeNull();
  });

  it('adds the exact Anthropic models of the allow-list and the telemetry endpoint; the admin\'s own values win', () => {
    const policies = [{ scope: 'team:eng', allow_models: ['anthropic/claude-sonnet-4-5', 'claude-haiku-4-5', 'anthropic/claude-*', 'openai/gpt-4o'] }];
    const served = managedSettingsFor(stateWith([{ scope: 'team:eng', settings: { env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example' } }, updated_at: at }], policies), 'eng', HUB);
    expect(served?.settings.availableModels).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5']);
    expect(served?.settings.env).toMatchObject({ CLAUDE_CODE_ENABLE_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example' });
    const named = managedSettingsFor(stateWith([{ scope: 'team:eng', settings: { availableModels: ['opus'] }, updated_at: at }], policies), 'eng', HUB);
    expect(named?.settings.availableModels).toEqual(['opus']);
  });

  it('the checksum is sha256 of the content with sorted keys: the same for any key order, new for any change', () => {
    const one = managedSettingsFor(stateWith([{ scope: '*', settings: { a: 1, b: { c: 2, d: 3 } }, updated_at: at }]), 'eng', HUB);
    const same = managedSettingsFor(stateWith([{ scope: '*', settings: { b: { d: 3, c: 2 }, a: 1 }, updated_at: at }]), 'eng', HUB);
    const other = managedSettingsFor(stateWith([{ scope: '*', settings: { a: 2, b: { c: 2, d: 3 } }, updated_at: at }]), 'eng', HUB);
    expect(one?.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(one?.uuid).toBe(one?.checksum);
    expect(same?.checksum).toBe(one?.checksum);
    expect(other?.checksum).not.toBe(one?.checksum);
  });
});
