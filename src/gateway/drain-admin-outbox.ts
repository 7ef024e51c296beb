// Moves the admin outbox (CLI changes waiting in the state, src/state/admin-outbox.ts) into
// this gw's audit trail as `admin.change` records: at start, and whenever the state changes.
// An entry is claimed first (so two instances on one PostgreSQL do not both record it),
// appended, then removed; a gw that dies between the two leaves it claimed, and another takes
// it over after a minute: at least once, never silently lost.
import type { AuditTrail } from '../audit/audit-trail.js';
import type { Logger } from '../logger.js';
import { claimOutbox, removeOutboxEntries } from '../state/admin-outbox.js';
import type { StateStore } from '../state/state-store.js';

export function startOutboxDrain(state: StateStore, audit: Pick<AuditTrail, 'append'>, logger: Logger, claimant: string): () => void {
  let running: Promise<void> | null = null;
  let again = false;
  const drain = async () => {
    if ((state.snapshot().admin_outbox ?? []).length === 0) return;
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
        logger.error({ err: String(error) }, 'admin change not recorded yet; it stays in the outbox');
      }
    }
    if (recorded.size > 0) await state.update((draft) => removeOutboxEntries(draft, recorded));
  };
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
