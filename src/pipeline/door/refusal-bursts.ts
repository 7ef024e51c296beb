// Refusals at the door are not recorded one by one (a flood of made-up keys would flood the
// trail): each origin's first refusal is recorded, then a summary per window. Identify
// (auth.refused_burst) and the local guard (guard.refused_burst) each keep one tracker.
import { RefusedBurstTracker, type BurstKinds } from '../../auth/refused-burst.js';
import type { GatewayServices } from '../gateway-services.js';

export function newBurstTracker<Reason extends string>(services: GatewayServices, kinds: BurstKinds): RefusedBurstTracker<Reason> {
  return new RefusedBurstTracker<Reason>({
    windowMs: services.state.snapshot().settings.refused_burst_window_seconds * 1000,
    now: () => services.now().getTime(),
    kinds,
    emit: (kind, summary) => {
      const { origin, reasons, ...data } = summary;
      // Only reasons that occurred are keys, so no value is undefined.
      services.audit.append({ kind, origin, data: { ...data, reasons: reasons as Record<string, number> } }).then(
        () => services.metrics.auditRecords.inc({ kind }),
        () => services.metrics.auditWriteErrors.inc(),
      );
    },
  });
}
