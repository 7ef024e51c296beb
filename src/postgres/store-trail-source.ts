// The request records of a PostgreSQL store (gw serve --store, GW_DATABASE_URL) as a
// TrailSource: what budgets are rebuilt from and `gw usage` sums. The composition root and the
// CLI pick it and hand it to spend/trail-source.ts, so spend/ never reaches for a store. The
// database client is loaded here, on first use, so a run without a store never pays for it.
import type { TrailSource } from '../spend/trail-source.js';

export async function openStoreTrailSource(storeUrl: string): Promise<TrailSource> {
  const [{ openDatabase }, { readStoreRequestRecords }] = await Promise.all([import('./database.js'), import('./postgres-request-records.js')]);
  const database = openDatabase(storeUrl, { maxConnections: 2 });
  return { records: (since) => readStoreRequestRecords(database, since), where: 'the PostgreSQL store', close: () => database.end() };
}
