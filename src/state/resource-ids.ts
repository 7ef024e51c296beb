// Which provider created each resource id (response, file, batch, video, container…),
// so a follow-up call (retrieve, cancel, content) reaches the same upstream. Written
// per request, so it lives apart from state.json (DESIGN.md, "State"): an append-only
// `$GW_HOME/resource-ids.jsonl` replayed into a bounded in-memory map at start.
// Losing the last lines in a crash only sends those ids' follow-ups to the default
// provider, so lines are not fsynced.
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../error-code.js';

export interface ResourceIdStore {
  /** The provider name that created the id, when gw saw it. */
  providerOf: (id: string) => string | undefined;
  /** Records the creator; a shared store resolves once every instance can see it. */
  remember(id: string, provider: string): void | Promise<void>;
  /** A shared store fetches ids another instance remembered, before providerOf is asked. */
  load?(ids: readonly string[]): Promise<void>;
  /**
   * Remembers `key` only if no instance has yet: true for the first caller, false after. What a
   * finished batch's usage is recorded by, so polling it again (here or through another instance)
   * does not count it twice.
   */
  claim(key: string, provider: string): Promise<boolean>;
  close(): Promise<void>;
}

export const RESOURCE_IDS_FILE = 'resource-ids.jsonl';
/** Ids kept in memory (and in the file after compaction): about 100 bytes each. */
export const DEFAULT_MAX_RESOURCE_IDS = 200_000;

/** Ids are provider strings (`file-abc`, `resp_…`, `msgbatch_…`): bounded and printable, never paths. */
export const PLAUSIBLE_ID = /^[\w.:-]{1,256}$/;

/** The in-memory map remembers at once: callers need not await it. */
interface MemoryResourceIds extends ResourceIdStore {
  remember(id: string, provider: string): void;
  entries(): Map<string, string>;
}

export function createMemoryResourceIds(maxEntries = DEFAULT_MAX_RESOURCE_IDS): MemoryResourceIds {
  const map = new Map<string, string>();
  return {
    providerOf: (id) => map.get(id),
    remember(id, provider) {
      if (!PLAUSIBLE_ID.test(id) || map.get(id) === provider) return;
      map.delete(id); // re-insert at the end: the map's order is the eviction order
      map.set(id, provider);
      if (map.size > maxEntries) map.delete(map.keys().next().value as string);
    },
    async claim(key, provider) {
      if (map.has(key) || !PLAUSIBLE_ID.test(key)) return false;
      map.set(key, provider);
      if (map.size > maxEntries) map.delete(map.keys().next().value as string);
      return true;
    },
    close: async () => {},
    entries: () => map,
  };
}

export async function openResourceIdStore(home: string, maxEntries = DEFAULT_MAX_RESOURCE_IDS): Promise<ResourceIdStore> {
  const file = path.join(home, RESOURCE_IDS_FILE);
  const memory = createMemoryResourceIds(maxEntries);
  const lines = await replay(file, memory);
  // The file grows by one line per new id; rewrite it with the live entries once it holds twice as many.
  if (lines > 2 * maxEntries) await compact(file, memory.entries());
  const out: WriteStream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  out.on('error', () => { /* the map still serves; a full disk must not stop requests */ });
  return {
    providerOf: memory.providerOf,
    remember(id, provider) {
      if (memory.providerOf(id) === provider || !PLAUSIBLE_ID.test(id)) return;
      memory.remember(id, provider);
      out.write(`${JSON.stringify({ id, provider })}\n`);
    },
    async claim(key, provider) {
      if (!(await memory.claim(key, provider))) return false;
      out.write(`${JSON.stringify({ id: key, provider })}\n`);
      return true;
    },
    close: () => new Promise<void>((resolve) => out.end(resolve)),
  };
}

async function replay(file: string, memory: MemoryResourceIds): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 0;
    throw error;
  }
  let count = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    count += 1;
    try {
      const entry = JSON.parse(line) as { id?: unknown; provider?: unknown };
      if (typeof entry.id === 'string' && typeof entry.provider === 'string') memory.remember(entry.id, entry.provider);
    } catch { /* a torn last line after a crash: skipped */ }
  }
  return count;
}

async function compact(file: string, entries: Map<string, string>): Promise<void> {
  const lines = [...entries].map(([id, provider]) => `${JSON.stringify({ id, provider })}\n`).join('');
  await writeFile(`${file}.tmp`, lines, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}
