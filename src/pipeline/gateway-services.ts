// What the pipeline and the server are handed at start: every dependency injected,
// so tests swap any of them without monkey-patching.
import type { AuditFields } from '../audit/record.js';
import type { Logger } from '../logger.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { HealthComponent } from '../metrics/health-component.js';
import type { ProviderConfig } from '../providers/provider-adapter.js';
import type { SpendServices } from '../spend/spend-services.js';
import type { ResourceIdStore } from '../state/resource-ids.js';
import type { StateData } from '../state/schema.js';
import type { CallTracer } from '../telemetry/call-tracer.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { ProviderTokens } from '../upstream/provider-tokens.js';
import type { Limiter } from '../policy/rate-limiter.js';
import type { GuardrailRunner } from '../guardrails/run-guardrails.js';

export interface StateView {
  snapshot(): StateData;
  onChange(listener: (state: StateData) => void): () => void;
  /** The last reload error, when the file on disk is broken and the last good snapshot is served. */
  lastError?(): Error | null;
  /** Looks for a change now (the door, before refusing a credential it does not know). */
  refresh?(): Promise<void>;
  /** Which store serves the state (file or PostgreSQL) and how fresh this instance's copy is. */
  health?(): { kind: string; ok: boolean; version?: number; synced_ms_ago?: number; mtime_ns?: string; file_id?: string };
}

export interface AuditAppender {
  append(fields: AuditFields): Promise<unknown>;
  status(): { ok: boolean; reason?: string };
}

/** The providers in force now (environment + state + mock), re-resolved when state.json changes. */
export interface ProviderSet {
  providers: readonly ProviderConfig[];
  aliases: Readonly<Record<string, string>>;
  warnings: readonly string[];
  /** Routing targets' own keys as written in state.json (`env:NAME` or literal) → the key. */
  routeKeys?: Readonly<Record<string, string>>;
}

export interface GatewayServices {
  state: StateView;
  audit: AuditAppender;
  metrics: GatewayMetrics;
  logger: Logger;
  now: () => Date;
  providers: () => ProviderSet;
  upstream: UpstreamClient;
  /** Access tokens for providers without a static key (Vertex AI); absent in tests that build their own services. */
  providerTokens?: ProviderTokens;
  /** Which provider created each resource id (src/state/resource-ids.ts); in memory only when absent. */
  resourceIds?: ResourceIdStore;
  /** OpenTelemetry spans per call and attempt (src/telemetry/); null when OTEL_EXPORTER_OTLP_* is not set. */
  tracer?: CallTracer | null;
  /** Extra /health components contributed by later stages (hub, license). */
  healthComponents?: () => Record<string, HealthComponent>;
  /** Prices, budgets and their counters (src/spend); made on first use from state when absent (tests). */
  spend?: SpendServices;
  /** Rate-limit counters shared by every instance (gw serve --redis); else each process counts its own. */
  limiter?: Limiter;
  /** External guardrails' calls (src/guardrails/); made on first use, without an environment, when absent (tests). */
  guardrails?: GuardrailRunner;
}
