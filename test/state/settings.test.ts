import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/state/schema.js';
import { SETTING_DEFINITIONS, SETTING_NAMES, formatSetting, isAddressOrSubnet, setSetting } from '../../src/state/settings.js';
import { StateInputError, StateRefusedError } from '../../src/state/state-errors.js';
import { openStateStore } from '../../src/state/state-store.js';
import { createTeam } from '../../src/state/teams.js';
import { makeTempHome } from './temp-home.js';

describe('setting definitions', () => {
  it('covers every field of Settings, and every default passes its own check and round-trips', () => {
    expect([...SETTING_NAMES].sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    for (const name of SETTING_NAMES) {
      const definition = SETTING_DEFINITIONS[name];
      const value = DEFAULT_SETTINGS[name];
      expect(definition.check(value), name).toBe(true);
      expect(definition.parse(formatSetting(name, value)), name).toEqual(value);
      expect(definition.description.length, name).toBeGreaterThan(10);
    }
  });

  it('parses enforce_auth from on/off/true/false only', () => {
    const { parse } = SETTING_DEFINITIONS.enforce_auth;
    expect([parse('on'), parse('true'), parse('OFF'), parse('false')]).toEqual([true, true, false, false]);
    expect(() => parse('yes')).toThrow('invalid value "yes" for enforce_auth: use on, true, off, false');
  });

  it('parses the audit policies', () => {
    expect(SETTING_DEFINITIONS.audit_failure.parse('continue')).toBe('continue');
    expect(() => SETTING_DEFINITIONS.audit_failure.parse('ignore')).toThrow(StateInputError);
    expect(SETTING_DEFINITIONS.audit_fsync.parse('interval')).toBe('interval');
    expect(() => SETTING_DEFINITIONS.audit_fsync.parse('sometimes')).toThrow(/use always, interval, never/);
  });

  it('parses body sizes with and without units, within 1 KiB..1 GiB', () => {
    const { parse, format } = SETTING_DEFINITIONS.body_limit_bytes;
    expect(parse('32MiB')).toBe(33_554_432);
    expect(parse('1048576')).toBe(1_048_576);
    expect(parse('512 KiB')).toBe(524_288);
    expect(parse('10MB')).toBe(10_000_000);
    expect(format(33_554_432)).toBe('32MiB');
    expect(format(10_000_000)).toBe('10000000');
    for (const bad of ['12', '2GiB', '1.5MiB', '32 parsecs', '-1', '']) expect(() => parse(bad), bad).toThrow(StateInputError);
  });

  it('validates trusted proxies as IPs or CIDRs', () => {
    const { parse } = SETTING_DEFINITIONS.trusted_proxies;
    expect(parse('10.0.0.0/8, 192.168.1.1,2001:db8::/32')).toEqual(['10.0.0.0/8', '192.168.1.1', '2001:db8::/32']);
    expect(parse('none')).toEqual([]);
    for (const bad of ['10.0.0.0/33', '2001:db8::/129', 'example.com', '10.0.0.1/8/1', '10.0.0/8', '10.0.0.0/']) {
      expect(isAddressOrSubnet(bad), bad).toBe(false);
    }
    expect(() => parse('10.0.0.1,bogus')).toThrow('invalid value "bogus" for trusted_proxies');
  });

  it('bounds refused_burst_window_seconds to 1..3600', () => {
    const { parse } = SETTING_DEFINITIONS.refused_burst_window_seconds;
    expect(parse('1')).toBe(1);
    expect(parse('3600')).toBe(3600);
    for (const bad of ['0', '3601', '1.5', 'ten']) expect(() => parse(bad), bad).toThrow(/from 1 to 3600/);
  });
});

describe('setSetting', () => {
  it('stores a value in state.json and refuses unknown names by listing the valid ones', async () => {
    const store = await openStateStore(await makeTempHome());
    expect(await setSetting(store, 'enforce_auth', 'on')).toBe(true);
    expect(store.snapshot().settings.enforce_auth).toBe(true);
    await expect(setSetting(store, 'enforce', 'on')).rejects.toThrow(
      `unknown setting "enforce"; valid settings: ${SETTING_NAMES.join(', ')}`,
    );
    await store.close();
  });

  it('accepts default_team only for an existing team, or none', async () => {
    const store = await openStateStore(await makeTempHome());
    await expect(setSetting(store, 'default_team', 'ops')).rejects.toThrow(StateRefusedError);
    await expect(setSetting(store, 'default_team', 'Not Valid')).rejects.toThrow(StateInputError);
    await createTeam(store, 'ops');
    expect(await setSetting(store, 'default_team', 'ops')).toBe('ops');
    expect(await setSetting(store, 'default_team', 'none')).toBeNull();
    expect(store.snapshot().settings.default_team).toBeNull();
    await store.close();
  });
});
