// One part's line in /health: its status and whatever details say why. Every layer that has a
// part to report (the state store, the audit trail, the sidecar's hub session, the shared
// stores) returns this shape, so it lives on the ground floor beside the metrics, not in the
// pipeline the sidecar session must not know.
export interface HealthComponent {
  status: 'ok' | 'degraded' | 'down';
  [detail: string]: unknown;
}
