import { describe, expect, it } from 'vitest';
import { bootstrapLocalTeam } from '../../src/state/bootstrap.js';
import { openStateStore } from '../../src/state/state-store.js';
import { createTeam } from '../../src/state/teams.js';
import { findKeyRecord, isWellFormedVirtualKey } from '../../src/state/virtual-keys.js';
import { makeTempHome } from './temp-home.js';

describe('bootstrapLocalTeam', () => {
  it('creates the local team and key on an empty home, once and only once', async () => {
    const home = await makeTempHome();
    const store = await openStateStore(home);
    const first = await bootstrapLocalTeam(store);
    expect(first).not.toBeNull();
    expect(isWellFormedVirtualKey(first?.key ?? '')).toBe(true);
    expect(store.snapshot().teams.map((team) => team.name)).toEqual(['local']);
    expect(findKeyRecord(store.snapshot(), first?.key ?? '')?.name).toBe('local');
    expect(await bootstrapLocalTeam(store)).toBeNull();
    await store.close();

    const reopened = await openStateStore(home);
    expect(await bootstrapLocalTeam(reopened)).toBeNull();
    expect(reopened.snapshot().keys).toHaveLength(1);
    await reopened.close();
  });

  it('creates one key even when two stores race on the same empty home', async () => {
    const home = await makeTempHome();
    const [left, right] = await Promise.all([openStateStore(home), openStateStore(home)]);
    const results = await Promise.all([bootstrapLocalTeam(left), bootstrapLocalTeam(right)]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    await left.update(() => undefined);
    expect(left.snapshot().keys).toHaveLength(1);
    await Promise.all([left.close(), right.close()]);
  });

  it('does nothing when any team exists', async () => {
    const store = await openStateStore(await makeTempHome());
    await createTeam(store, 'ops');
    expect(await bootstrapLocalTeam(store)).toBeNull();
    expect(store.snapshot().keys).toHaveLength(0);
    await store.close();
  });
});
