// With --store, the parts several instances must share besides the state itself:
// the audit trail (a chain per boot in PostgreSQL) and the resource-id memory. One
// pool serves both; the state store holds its own (it also LISTENs).
import path from 'node:path';
import { loadOrCreateAuditKey } from '../audit/audit-key.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { databaseAccessError, openDatabase } from '../postgres/database.js';
import { openPostgresAuditTrail } from '../postgres/postgres-audit-trail.js';
import { openPostgresResourceIds } from '../postgres/postgres-resource-ids.js';
import type { ResourceIdStore } from '../state/resource-ids.js';

export interface SharedStores {
  audit: AuditTrail;
  resourceIds: ResourceIdStore;
  close(): Promise<void>;
}

export async function openSharedStores(url: string, home: string): Promise<SharedStores> {
  const database = openDatabase(url);
  try {
    // The key stays in the instance's home: whoever can write the database cannot forge a checkpoint.
    const key = await loadOrCreateAuditKey(path.join(home, 'audit.key'));
    const audit = await openPostgresAuditTrail({ database, key });
    const resourceIds = await openPostgresResourceIds(database, () => undefined);
    return { audit, resourceIds, close: () => database.end() };
  } catch (error) {
    await database.end().catch(() => undefined);
    throw databaseAccessError(url, error);
  }
}
