import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../../src/state/state-store.js';
import { createTeam } from '../../../src/state/teams.js';
import { createKey, keyStatus } from '../../../src/state/virtual-keys.js';
import { buildStateModules } from './build-state-modules.js';
import { makeTempHome } from '../../state/temp-home.js';

const run = promisify(execFile);
const fixtures = path.join(import.meta.dirname, 'fixtures');
let build: Awaited<ReturnType<typeof buildStateModules>>;

beforeAll(async () => {
  build = await buildStateModules();
}, 120_000);

afterAll(async () => {
  await build?.remove();
});

describe('state.json shared between processes', () => {
  it('loses no key when six processes each add twenty at once', async () => {
    const home = await makeTempHome();
    const store = await openStateStore(home);
    await createTeam(store, 'load');
    const startAt = Date.now() + 1_000;
    const workers = Array.from({ length: 6 }, (_, worker) =>
      run(process.execPath, [path.join(fixtures, 'add-keys-child.mjs'), build.outDir, home, String(worker), '20', String(startAt)]),
    );
    await Promise.all(workers);
    await store.update(() => undefined);
    const names = store.snapshot().keys.map((record) => record.name);
    expect(names).toHaveLength(120);
    expect(new Set(names).size).toBe(120);
    expect(new Set(store.snapshot().keys.map((record) => record.id)).size).toBe(120);
    await store.close();
  }, 60_000);

  it('lets a watching store refuse a key revoked by another process within a second', async () => {
    const home = await makeTempHome();
    const server = await openStateStore(home, { pollIntervalMs: 250 });
    await createTeam(server, 'ops');
    const { record } = await createKey(server, { team: 'ops' });
    server.watch();
    const noticed = new Promise<number>((resolve) => {
      server.onChange((state) => {
        const current = state.keys.find((candidate) => candidate.id === record.id);
        if (current && keyStatus(current, new Date()) === 'revoked') resolve(Date.now());
      });
    });
    const { stdout } = await run(process.execPath, [path.join(fixtures, 'revoke-key-child.mjs'), build.outDir, home, record.id]);
    const revokedAt = Number(stdout.trim());
    const noticedAt = await noticed;
    expect(noticedAt - revokedAt).toBeLessThan(1_000);
    expect(server.snapshot().keys[0]?.revoked_at).not.toBeNull();
    await server.close();
  }, 30_000);
});
