// Moves the admin outbox (CLI changes waiting in the state, src/state/admin-outbox.ts) into
// this gw's audit trail as `admin.change` records: at start, and whenever the state changes
// (a command run while no gw runs records its own, the same way).
// An entry is claimed first (so two instances on one PostgreSQL do not both record it),
// appended, then removed; a gw that dies between the two leaves it claimed, and another takes
// it over after a minute: at least once, never silently lost.
import type { AuditTrail } from '../audit/audit-trail.js';
import type { Logger } from '../logger.js';
import { claimOutbox, removeOutboxEntries } from '../state/admin-outbox.js';
import type { StateStore } from '../state/state-store.js';

/**
 * One pass: claims the entries this writer may move, appends each as `admin.change`, removes
 * the recorded ones. An entry whose append failed stays (claimed) for the next pass. Also the
 * whole job of a CLI command that finds no gw running (src/cli/record-admin-changes.ts).
 */
export async function moveOutboxToTrail(state: StateStore, audit: Pick<AuditTrail, 'append'>, claimant: string, onError: (error: unknown) => void): Promise<number> {
  if ((state.snapshot().admin_outbox ?? []).length === 0) return 0;
  const claimed = await state.update((draft) => claimOutbox(draft, claimant, state.now()));
  const recorded = new Set<string>();
  for (const entry of claimed) {
    try {
      await audit.append({
        kind: 'admin.change',
        data: { via: 'cli', actor: entry.actor, command: entry.command, at: entry.at, outbox_id: entry.id, changes: entry.changes },
      });
      recorded.add(entry.id);
    } catch (error) {
      onError(error);
    }
  }
  if (recorded.size > 0) await state.update((draft) => removeOutboxEntries(draft, recorded));
  return recorded.size;
}

export function startOutboxDrain(state: StateStore, audit: Pick<AuditTrail, 'append'>, logger: Logger, claimant: string): () => void {
  let running: Promise<unknown> | null = null;
  let again = false;
  const drain = () => moveOutboxToTrail(state, audit, claimant, (error) => {
    logger.error({ err: String(error) }, 'admin change not recorded yet; it stays in the outbox');
  });
  const kick = () => {
    if (running) { again = true; return; }
    running = drain().catch((error: unknown) => logger.error({ err: String(error) }, 'admin outbox drain failed')).finally(() => {
      running = null;
      if (again) { again = false; kick(); }
    });
  };
  const stop = state.onChange(kick);
  // A claim left by a gw that stopped is taken over once its lease is over.
  const ticker = setInterval(kick, 30_000);
  ticker.unref();
  kick();
  return () => { stop(); clearInterval(ticker); };
}
