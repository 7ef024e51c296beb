// Where the request records are read from: the home's audit.jsonl, or with a PostgreSQL store
// (gw serve --store, GW_DATABASE_URL) its trail of every instance. The database client is
// loaded only when a store is named.
import path from 'node:path';
import { AUDIT_LOG_FILE } from '../audit/audit-trail.js';
import { readRequestRecords, type RequestRecord } from './read-trail.js';

export interface TrailSource {
  records(since?: Date): AsyncIterable<RequestRecord>;
  /** For messages: the file, or "the PostgreSQL store". */
  where: string;
  close(): Promise<void>;
}

export async function openTrailSource(home: string, storeUrl: string | undefined): Promise<TrailSource> {
  if (storeUrl === undefined) {
    const file = path.join(home, 'audit', AUDIT_LOG_FILE);
    return { records: (since) => readRequestRecords(file, since), where: file, close: async () => {} };
  }
  const [{ openDatabase }, { readStoreRequestRecords }] = await Promise.all([import('../postgres/database.js'), import('../postgres/postgres-request-records.js')]);
  const database = openDatabase(storeUrl, { maxConnections: 2 });
  return { records: (since) => readStoreRequestRecords(database, since), where: 'the PostgreSQL store', close: () => database.end() };
}
