// Where the request records are read from: the home's audit.jsonl, or with a PostgreSQL store
// (gw serve --store, GW_DATABASE_URL) its trail of every instance, opened by the store the
// caller hands in (postgres/store-trail-source.ts): the composition root picks the store.
import path from 'node:path';
import { AUDIT_LOG_FILE } from '../audit/audit-trail.js';
import { readRequestRecords, type RequestRecord } from './read-trail.js';

export interface TrailSource {
  records(since?: Date): AsyncIterable<RequestRecord>;
  /** For messages: the file, or "the PostgreSQL store". */
  where: string;
  close(): Promise<void>;
}

/** Opens a store's trail; called only when a store is named. */
export type OpenStoreTrail = (storeUrl: string) => Promise<TrailSource>;

export async function openTrailSource(home: string, storeUrl: string | undefined, openStoreTrail: OpenStoreTrail): Promise<TrailSource> {
  if (storeUrl === undefined) {
    const file = path.join(home, 'audit', AUDIT_LOG_FILE);
    return { records: (since) => readRequestRecords(file, since), where: file, close: async () => {} };
  }
  return openStoreTrail(storeUrl);
}
