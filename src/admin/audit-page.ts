// What the console's Audit page reads and does: the trail's state (writable, newest durable
// record, last checkpoint, how its checkpoints reach their witnesses), a verification run on
// demand (the Verify button: the same verifier as `gw audit verify`), and on a hub the trails
// it witnesses for its sidecars. Built by the gateway (src/gateway/audit-page-source.ts),
// which knows where the trail lives; this file only names the shapes.

export interface TrailVerdict {
  ok: boolean;
  checked_at: string;
  took_ms: number;
  /** One per chain: the file trail is one; PostgreSQL has one per instance boot. */
  chains: Array<{ name: string; ok: boolean; records: number; problem?: string; warnings: string[] }>;
}

export interface WitnessedTrailSummary {
  trail: string;
  from: { team: string | null; person: string | null; key_id: string | null } | null;
  /** The first 12 characters of the pinned Ed25519 key. */
  key: string;
  first_received_at: string;
  newest_seq: number;
  newest_received_at: string;
  /** Checkpoints refused for this trail (cut, rewritten or re-keyed), kept as evidence. */
  refused: number;
}

export interface AuditPage {
  state(): Record<string, unknown>;
  /** Verifies the whole trail now; a second call while one runs shares its answer. */
  verify(): Promise<TrailVerdict>;
  /** The sidecar trails this hub witnesses; none on a sidecar. */
  witnessed(): Promise<WitnessedTrailSummary[]>;
}
