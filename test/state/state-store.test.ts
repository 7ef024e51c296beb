import { chmod, mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/state/schema.js';
import { StateAccessError, StateFileError, type StateError } from '../../src/state/state-errors.js';
import { openStateStore } from '../../src/state/state-store.js';
import { createTeam } from '../../src/state/teams.js';
import { makeTempHome } from './temp-home.js';


async function writeState(home: string, text: string): Promise<string> {
  await mkdir(home, { recursive: true });
  const file = path.join(home, 'state.json');
  await writeFile(file, text);
  return file;
}

describe('openStateStore', () => {
  it('creates the home 0700 and writes state.json 0600 with no temp files left', async () => {
    const home = await makeTempHome();
    const store = await openStateStore(home);
    expect(store.snapshot().teams).toEqual([]);
    await createTeam(store, 'ops');
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(store.file, 'utf8'));
    expect(saved.teams.map((team: { name: string }) => team.name)).toEqual(['ops']);
    expect((await readdir(home)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await store.close();
  });

  it('tightens an existing world-readable state.json to 0600', async () => {
    const home = await makeTempHome();
    const file = await writeState(home, '{"version":1,"teams":[],"keys":[]}');
    await chmod(file, 0o644);
    const store = await openStateStore(home);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it('reports broken JSON as one line naming the file and the line', async () => {
    const home = await makeTempHome();
    const file = await writeState(home, '{\n  "version": 1,\n  "teams": [,\n}');
    const error = await openStateStore(home).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toBe(`state file ${file} is not valid JSON (line 3): fix or move it away`);
    expect((error as Error).message).not.toContain('\n');
  });

  it('reports a wrong shape by field', async () => {
    const home = await makeTempHome();
    await writeState(home, JSON.stringify({ version: 1, teams: [{ name: 'a', created_at: 'x' }], keys: [{ id: 'vk_1' }] }));
    await expect(openStateStore(home)).rejects.toThrow(/is invalid: keys\[0\] has no team/);
    await writeState(home, JSON.stringify({ version: 1, settings: { enforce_auth: 'yes' } }));
    await expect(openStateStore(home)).rejects.toThrow(/settings\.enforce_auth has an invalid value "yes"/);
    await writeState(home, JSON.stringify({ version: 1, providers: [{ name: 'p', kind: 'openai' }] }));
    await expect(openStateStore(home)).rejects.toThrow(/providers\[0\] /);
    await writeState(home, JSON.stringify({ version: 1, aliases: { fast: 3 } }));
    await expect(openStateStore(home)).rejects.toThrow(/aliases\.fast /);
    await writeState(home, JSON.stringify({ version: 7 }));
    await expect(openStateStore(home)).rejects.toThrow(StateFileError);
  });

  it('fills missing settings from the defaults and keeps fields it does not know', async () => {
    const home = await makeTempHome();
    await writeState(home, JSON.stringify({ version: 1, teams: [], keys: [], settings: { enforce_auth: true }, webhooks: [{ url: 'a@b' }] }));
    const store = await openStateStore(home);
    expect(store.snapshot().settings).toEqual({ ...DEFAULT_SETTINGS, enforce_auth: true });
    await createTeam(store, 'ops');
    const saved = JSON.parse(await readFile(store.file, 'utf8'));
    expect(saved.webhooks).toEqual([{ url: 'a@b' }]);
    await store.close();
  });

  it('says "cannot write" in one line when the home cannot be created', async () => {
    const parent = await makeTempHome();
    await writeState(parent, '{}');
    const home = path.join(parent, 'state.json', 'inside');
    await expect(openStateStore(home)).rejects.toThrow(new StateAccessError(`cannot write ${home}: a parent is not a folder`));
  });

});

describe('snapshot and update', () => {
  it('hands out a frozen snapshot that update replaces and listeners receive', async () => {
    const store = await openStateStore(await makeTempHome());
    const before = store.snapshot();
    const seen: string[][] = [];
    store.onChange((state) => seen.push(state.teams.map((team) => team.name)));
    await createTeam(store, 'ops');
    expect(before.teams).toEqual([]);
    expect(Object.isFrozen(store.snapshot().teams)).toBe(true);
    expect(seen).toEqual([['ops']]);
    await store.close();
  });

  it('writes nothing when the mutation throws', async () => {
    const store = await openStateStore(await makeTempHome());
    await createTeam(store, 'ops');
    const failing = store.update((draft) => {
      draft.teams.push({ name: 'half', created_at: 'x' });
      throw new Error('nope');
    });
    await expect(failing).rejects.toThrow('nope');
    expect(JSON.parse(await readFile(store.file, 'utf8')).teams).toHaveLength(1);
    expect(store.snapshot().teams).toHaveLength(1);
    await store.close();
  });

  it('serialises concurrent updates from one process', async () => {
    const store = await openStateStore(await makeTempHome());
    await Promise.all(Array.from({ length: 15 }, (_, index) => createTeam(store, `t${index}`)));
    expect(store.snapshot().teams).toHaveLength(15);
    await store.close();
  });
});

describe('watch', () => {
  it('picks up another store\'s write, and keeps the last good snapshot when the file breaks', async () => {
    const home = await makeTempHome();
    const server = await openStateStore(home, { pollIntervalMs: 20 });
    const cli = await openStateStore(home);
    const errors: StateError[] = [];
    server.onError((error) => errors.push(error));
    server.watch();
    await createTeam(cli, 'ops');
    await expect.poll(() => server.snapshot().teams.map((team) => team.name), { timeout: 1_000 }).toEqual(['ops']);

    // Renamed into place, so the poll sees one change (writeFile would show an empty file first).
    await writeFile(`${server.file}.edit`, '{"version": 1, "teams": [');
    await rename(`${server.file}.edit`, server.file);
    await expect.poll(() => errors.length, { timeout: 1_000 }).toBe(1);
    expect(errors[0]).toBeInstanceOf(StateFileError);
    expect(server.snapshot().teams.map((team) => team.name)).toEqual(['ops']);
    // Reported once per change, not on every poll.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors).toHaveLength(1);
    await expect(createTeam(cli, 'dev')).rejects.toThrow(StateFileError);

    await writeFile(server.file, JSON.stringify({ version: 1, teams: [{ name: 'fixed', created_at: 'x' }], keys: [] }));
    await expect.poll(() => server.snapshot().teams.map((team) => team.name), { timeout: 1_000 }).toEqual(['fixed']);
    await server.close();
    await cli.close();
  });

  it("reports in health() the modification time of the file it serves, so a caller can wait for its change to be picked up", async () => {
    const home = await makeTempHome();
    const server = await openStateStore(home);
    const cli = await openStateStore(home);
    const fileMtime = async () => String((await stat(server.file, { bigint: true })).mtimeNs);
    const fileId = async () => {
      const info = await stat(server.file, { bigint: true });
      return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    };
    await createTeam(server, 'ops');
    expect(server.health().mtime_ns).toBe(await fileMtime());
    expect(server.health().file_id).toBe(await fileId());

    await createTeam(cli, 'dev');
    const written = await fileMtime();
    // Two writes may share a coarse timestamp: the file's id still changes (a new inode each write).
    expect(BigInt(server.health().mtime_ns ?? '0')).toBeLessThanOrEqual(BigInt(written));
    expect(server.health().file_id).not.toBe(await fileId());
    await server.refresh();
    expect(server.health().mtime_ns).toBe(written);
    const served = await fileId();
    expect(server.health().file_id).toBe(served);
    expect(server.snapshot().teams.map((team) => team.name)).toEqual(['ops', 'dev']);

    // A broken file is not served, so its time is not reported.
    await writeFile(`${server.file}.edit`, '{"version": 1, "teams": [');
    await rename(`${server.file}.edit`, server.file);
    await server.refresh();
    expect(server.health()).toMatchObject({ ok: false, mtime_ns: written, file_id: served });
    await server.close();
    await cli.close();
  });
});
