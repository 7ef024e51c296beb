// The audit trail's state as the admin console shows it: writable or why not, the newest
// durable record, where the trail lives and its last checkpoint.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AuditTrail } from '../audit/audit-trail.js';

export function describeAuditState(audit: AuditTrail, home: string, chainId: string | undefined): Record<string, unknown> {
  const status = audit.status();
  const where = chainId ? { store: 'postgres', chain: chainId } : { store: 'file', file: path.join(home, 'audit', 'audit.jsonl') };
  let checkpoint: unknown = null;
  if (!chainId) {
    try {
      checkpoint = JSON.parse(readFileSync(path.join(home, 'audit', 'checkpoint.json'), 'utf8'));
    } catch { /* none yet */ }
  }
  return { ...where, writable: status.ok, ...(status.ok ? { head_seq: status.seq } : { problem: status.reason }), checkpoint };
}
