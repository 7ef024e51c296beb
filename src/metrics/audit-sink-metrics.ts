// The audit sink's metrics on the gateway's registry: the backlog is read when scraped (it
// lives in the sink), deliveries and failures are counted as they happen.
import { Counter, Gauge, type Registry } from 'prom-client';

export interface AuditSinkMetrics {
  delivered(events: number, bytes: number): void;
  failed(): void;
  overBound(): void;
}

export function createAuditSinkMetrics(registry: Registry, backlog: () => { events: number; bytes: number }): AuditSinkMetrics {
  const registers = [registry];
  new Gauge({ name: 'gw_audit_sink_backlog_events', help: 'Audit records the checkpoint covers that the audit sink has not delivered yet.', registers, collect() { this.set(backlog().events); } });
  new Gauge({ name: 'gw_audit_sink_backlog_bytes', help: 'Bytes of the audit trail not delivered to the audit sink yet.', registers, collect() { this.set(backlog().bytes); } });
  const events = new Counter({ name: 'gw_audit_sink_delivered_events_total', help: 'OCSF events the audit sink delivered (acknowledged by the receiver), repeats after a restart included.', registers });
  const bytes = new Counter({ name: 'gw_audit_sink_delivered_bytes_total', help: 'Bytes of OCSF event lines the audit sink delivered.', registers });
  const batches = new Counter({ name: 'gw_audit_sink_batches_total', help: 'Batches the audit sink delivered.', registers });
  const failures = new Counter({ name: 'gw_audit_sink_failures_total', help: 'Audit sink deliveries that failed (receiver down, not 2xx, file not writable); each is retried.', registers });
  const overBound = new Counter({ name: 'gw_audit_sink_over_bound_total', help: 'Times the audit sink backlog went past audit_sink_max_backlog_bytes.', registers });
  return {
    delivered: (count, size) => { events.inc(count); bytes.inc(size); batches.inc(); },
    failed: () => failures.inc(),
    overBound: () => overBound.inc(),
  };
}
