// The StateStore contract, written once and run against both implementations: the
// embedded state.json and PostgreSQL (a real server). Two store objects stand for two
// processes (a CLI and a gw serve, or two instances): neither may lose the other's writes,
// and each sees the other's changes once watching.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore, type StateStore } from '../../../src/state/state-store.js';
import { openPostgresStateStore } from '../../../src/postgres/postgres-state-store.js';
import { migrate } from '../../../src/postgres/migrations.js';
import { openDatabase } from '../../../src/postgres/database.js';
import { makeHome } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { StateRefusedError } from '../../../src/state/state-errors.js';

let postgres: PostgresServer;

beforeAll(async () => { postgres = await startPostgres(); }, 60_000);
afterAll(async () => { await postgres?.destroy(); });

interface Backend {
  name: string;
  /** Two stores over the same state, as two processes would open it. */
  openPair(): Promise<[StateStore, StateStore]>;
}

const backends: Backend[] = [
  {
    name: 'state.json',
    async openPair() {
      const home = await makeHome('gw-contract-');
      return [await openStateStore(home, { pollIntervalMs: 50 }), await openStateStore(home, { pollIntervalMs: 50 })];
    },
  },
  {
    name: 'PostgreSQL',
    async openPair() {
      const url = await postgres.createDatabase();
      const database = openDatabase(url);
      await migrate(database);
      await database.end();
      return [await openPostgresStateStore(url, await makeHome('gw-contract-')), await openPostgresStateStore(url, await makeHome('gw-contract-'))];
    },
  },
];

async function eventually(check: () => boolean, timeoutMs = 2_000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

describe.each(backends)('StateStore on $name', (backend) => {
  it('starts empty, and an update is in the snapshot at once, frozen', async () => {
    const [store, other] = await backend.openPair();
    try {
      expect(store.snapshot().teams).toEqual([]);
      const result = await store.update((draft) => { draft.teams.push({ name: 'eng', created_at: store.now().toISOString() }); return 'done'; });
      expect(result).toBe('done');
      expect(store.snapshot().teams.map((team) => team.name)).toEqual(['eng']);
      expect(Object.isFrozen(store.snapshot().teams)).toBe(true);
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
  });

  it('another process sees a change within 2 s once watching, and onChange tells it', async () => {
    const [writer, reader] = await backend.openPair();
    try {
      reader.watch();
      let told = 0;
      reader.onChange(() => { told += 1; });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await writer.update((draft) => { draft.teams.push({ name: 'ops', created_at: writer.now().toISOString() }); });
      const elapsed = await eventually(() => reader.snapshot().teams.some((team) => team.name === 'ops'));
      // state.json is polled every 50 ms here; PostgreSQL is told by NOTIFY (its 1 s poll is the fallback).
      expect(elapsed).toBeLessThan(500);
      expect(told).toBeGreaterThan(0);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });

  it('concurrent updates from two processes lose nothing', async () => {
    const [first, second] = await backend.openPair();
    try {
      await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).update((draft) => {
        draft.teams.push({ name: `team-${index}`, created_at: new Date().toISOString() });
      })));
      const names = await first.update((draft) => draft.teams.map((team) => team.name));
      expect(names.sort()).toEqual(Array.from({ length: 20 }, (_, index) => `team-${index}`).sort());
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('a refused change leaves the state as it was', async () => {
    const [store, other] = await backend.openPair();
    try {
      await expect(store.update((draft) => { draft.teams.push({ name: 'half', created_at: '' }); throw new StateRefusedError('no'); })).rejects.toThrow('no');
      expect(await other.update((draft) => draft.teams.length)).toBe(0);
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
  });

  it('a shared secret is created once: both processes read the same bytes', async () => {
    const [first, second] = await backend.openPair();
    try {
      const [a, b] = await Promise.all([first.loadOrCreateSecret('hub.key', 32), second.loadOrCreateSecret('hub.key', 32)]);
      expect(a.length).toBe(32);
      expect(b.equals(a)).toBe(true);
      await first.importSecret('hub.key', Buffer.alloc(32, 7));
      expect((await second.loadOrCreateSecret('hub.key', 32)).equals(Buffer.alloc(32, 7))).toBe(true);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('health names the store and is ok', async () => {
    const [store, other] = await backend.openPair();
    try {
      expect(store.health()).toMatchObject({ kind: backend.name === 'PostgreSQL' ? 'postgres' : 'file', ok: true });
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
  });
});
