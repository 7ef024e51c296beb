// A change made from the shell while no gw serve runs on this home becomes a record of the
// trail at once, not at the next start: the command takes the trail's lock itself, as a `cli`
// writer (no gateway.start/stop records; a gw starting meanwhile waits for it), and moves the
// outbox in exactly as a running gw would (src/gateway/drain-admin-outbox.ts). When a gw runs,
// it holds the lock and records the entry itself within a second. With --store the trail is
// PostgreSQL's, written by the instances only, so the entry waits for one of them.
import path from 'node:path';
import type { StateStore } from '../state/state-store.js';
import type { CliContext } from './cli-context.js';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** After a command's job, on the file store of `home`: the waiting outbox entries appended to the trail, or left for gw serve with a line saying why. */
export async function recordAdminChangesNow(context: CliContext, store: StateStore, home: string): Promise<void> {
  if ((store.snapshot().admin_outbox ?? []).length === 0) return;
  // Loaded only when there is something to record: a command that reads (gw keys list) never pays for the trail.
  const [{ AuditLockedError, openAuditTrail }, { moveOutboxToTrail }] = await Promise.all([import('../audit/audit-trail.js'), import('../gateway/drain-admin-outbox.js')]);
  let trail;
  try {
    trail = await openAuditTrail({
      dir: path.join(home, 'audit'), keyPath: path.join(home, 'audit.key'),
      fsync: store.snapshot().settings.audit_fsync, role: 'cli',
    });
  } catch (error) {
    // A running gw holds the trail: it records the entry itself.
    if (error instanceof AuditLockedError) return;
    // A cut or damaged trail: gw serve refuses to start and says what is wrong; the record waits until then.
    context.stderr.write(`gw: the change is made; its audit record waits in the state's admin outbox for the next gw serve (the audit trail cannot be opened: ${describe(error)})\n`);
    return;
  }
  try {
    await moveOutboxToTrail(store, trail, `cli:${process.pid}`, (error) => {
      context.stderr.write(`gw: an audit record of this change waits in the admin outbox for the next gw serve (${describe(error)})\n`);
    });
  } finally {
    await trail.close();
  }
}
