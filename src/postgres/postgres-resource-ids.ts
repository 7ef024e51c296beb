// Resource-id memory on PostgreSQL, so a file uploaded or a batch created through one
// instance is followed up through any other. Each instance keeps the ids it has seen in
// its bounded map (hits cost nothing); a miss is looked up in the table before the
// request is planned (load), and remember resolves once the row is committed, so the
// client hears of an id only after every instance can find it.
import { createMemoryResourceIds, DEFAULT_MAX_RESOURCE_IDS, PLAUSIBLE_ID, type ResourceIdStore } from '../state/resource-ids.js';
import type { Database } from './database.js';

// Ids loaded into memory at start: the newest, which are the ones follow-ups ask for.
const WARM_IDS = 10_000;

export async function openPostgresResourceIds(database: Database, onError: (error: unknown) => void, maxEntries = DEFAULT_MAX_RESOURCE_IDS): Promise<ResourceIdStore> {
  const memory = createMemoryResourceIds(maxEntries);
  const warm = await database.query<{ id: string; provider: string }>('SELECT id, provider FROM gw_resource_ids ORDER BY created_at DESC LIMIT $1', [WARM_IDS]);
  for (const row of warm.rows.reverse()) memory.remember(row.id, row.provider);
  return {
    providerOf: memory.providerOf,
    async remember(id, provider) {
      if (memory.providerOf(id) === provider || !PLAUSIBLE_ID.test(id)) return;
      memory.remember(id, provider);
      try {
        await database.query('INSERT INTO gw_resource_ids (id, provider) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET provider = EXCLUDED.provider', [id, provider]);
      } catch (error) {
        // This instance still knows the id; others send its follow-ups to the default provider.
        onError(error);
      }
    },
    async claim(key, provider) {
      if (memory.providerOf(key) !== undefined || !PLAUSIBLE_ID.test(key)) return false;
      // The row decides between instances: only the insert that made it claims the key.
      const made = await database.query('INSERT INTO gw_resource_ids (id, provider) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [key, provider]);
      memory.remember(key, provider);
      return made.rowCount === 1;
    },
    async load(ids) {
      const missing = ids.filter((id) => memory.providerOf(id) === undefined && PLAUSIBLE_ID.test(id));
      if (missing.length === 0) return;
      try {
        const found = await database.query<{ id: string; provider: string }>('SELECT id, provider FROM gw_resource_ids WHERE id = ANY($1::text[])', [missing]);
        for (const row of found.rows) memory.remember(row.id, row.provider);
      } catch (error) {
        onError(error);
      }
    },
    close: async () => {},
  };
}
