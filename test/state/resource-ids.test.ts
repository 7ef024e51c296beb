import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCE_IDS_FILE, createMemoryResourceIds, openResourceIdStore } from '../../src/state/resource-ids.js';

describe('resource id store', () => {
  it('survives a restart, skips a torn last line, and ignores implausible ids', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'gw-ids-'));
    const first = await openResourceIdStore(home);
    await first.remember('file-abc', 'openai');
    await first.remember('resp_1', 'groq');
    await first.remember('../../etc', 'openai');
    await first.close();
    await writeFile(path.join(home, RESOURCE_IDS_FILE), `${await readFile(path.join(home, RESOURCE_IDS_FILE), 'utf8')}{"id":"torn`);
    const second = await openResourceIdStore(home);
    expect(second.providerOf('file-abc')).toBe('openai');
    expect(second.providerOf('resp_1')).toBe('groq');
    expect(second.providerOf('../../etc')).toBeUndefined();
    await second.close();
  });

  it('claims a key once, across a restart (a finished batch\'s usage is recorded once)', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'gw-ids-'));
    const first = await openResourceIdStore(home);
    expect(await first.claim('usage:batch_1', 'openai')).toBe(true);
    expect(await first.claim('usage:batch_1', 'openai')).toBe(false);
    expect(await first.claim('usage:batch_2', 'openai')).toBe(true);
    await first.close();
    const second = await openResourceIdStore(home);
    expect(await second.claim('usage:batch_1', 'openai')).toBe(false);
    expect(await second.claim('usage:batch_3', 'openai')).toBe(true);
    await second.close();
  });

  it('keeps at most maxEntries ids, dropping the oldest, and compacts the file on open', async () => {
    const memory = createMemoryResourceIds(2);
    for (const id of ['a', 'b', 'c']) memory.remember(id, 'p');
    expect([...memory.entries().keys()]).toEqual(['b', 'c']);
    const home = await mkdtemp(path.join(os.tmpdir(), 'gw-ids-'));
    const store = await openResourceIdStore(home, 2);
    for (const id of ['a', 'b', 'c', 'd', 'e']) await store.remember(id, 'p');
    await store.close();
    const reopened = await openResourceIdStore(home, 2);
    await reopened.close();
    expect((await readFile(path.join(home, RESOURCE_IDS_FILE), 'utf8')).trim().split('\n')).toHaveLength(2);
    expect(reopened.providerOf('e')).toBe('p');
    expect(reopened.providerOf('a')).toBeUndefined();
  });
});
