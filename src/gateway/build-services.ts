// Builds GatewayServices once and whole: every field, including what the mode
// adds to /health and the resource-id store, is set here, before buildServer
// sees the object, so no stage reads a field that is filled in later.
import type { AuditTrail } from '../audit/audit-trail.js';
import type { Logger } from '../logger.js';
import { createGatewayMetrics } from '../metrics/gateway-metrics.js';
import type { HealthComponent } from '../metrics/health-component.js';
import type { GatewayServices, ProviderSet } from '../pipeline/gateway-services.js';
import { createSpendServices, type SpendServices } from '../spend/spend-services.js';
import { createLicenseReader, type LicenseReport } from '../state/license.js';
import type { ResourceIdStore } from '../state/resource-ids.js';
import type { StateError } from '../state/state-errors.js';
import type { StateStore } from '../state/state-store.js';
import type { CallTracer } from '../telemetry/call-tracer.js';
import type { Limiter } from '../policy/rate-limiter.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { createProviderTokens } from '../upstream/provider-tokens.js';
import { createGuardrailRunner } from '../guardrails/run-guardrails.js';

export interface ServiceParts {
  state: StateStore;
  audit: AuditTrail;
  /** Already wrapped by the mode (a sidecar sends every call through its hub session). */
  upstream: UpstreamClient;
  providers: () => ProviderSet;
  logger: Logger;
  resourceIds: ResourceIdStore;
  /** Spans per call, when OTEL_EXPORTER_OTLP_* asks for them. */
  tracer: CallTracer | null;
  /** The mode's own /health components (a sidecar's hub session), and Redis's when --redis is given. */
  modeHealth: () => Record<string, HealthComponent>;
  /** Shared rate-limit counters (gw serve --redis). */
  limiter?: Limiter;
  /** External guardrails' calls: the plain client (a guardrail is no provider, never sent through a hub), and the environment their env: credentials name. */
  guardrails?: { upstream: UpstreamClient; env: Readonly<Record<string, string | undefined>> };
}

export function buildServices(parts: ServiceParts & { spend?: SpendServices }): GatewayServices {
  const { state, logger, providers } = parts;
  const license = createLicenseReader(state.home, () => new Date());
  state.onError((error: StateError) => logger.error({ err: error.message }, 'state reload failed; serving the last good state'));
  const services: GatewayServices = {
    state: {
      snapshot: () => state.snapshot(), onChange: (listener) => state.onChange(listener), health: () => state.health(), refresh: () => state.refresh(),
      lastError: () => { const health = state.health(); return health.ok ? null : new Error(health.problem ?? 'state unreadable'); },
    },
    audit: parts.audit,
    metrics: createGatewayMetrics(),
    logger,
    now: () => new Date(),
    providers,
    upstream: parts.upstream,
    providerTokens: createProviderTokens(),
    resourceIds: parts.resourceIds,
    spend: parts.spend ?? createSpendServices({ overrides: () => state.snapshot().prices ?? [], now: () => new Date() }),
    tracer: parts.tracer,
    ...(parts.limiter ? { limiter: parts.limiter } : {}),
    guardrails: createGuardrailRunner(parts.guardrails?.upstream ?? parts.upstream, parts.guardrails?.env ?? {}),
    healthComponents: () => ({ providers: describeProviders(providers()), license: describeLicense(license()), ...parts.modeHealth() }),
  };
  // Frozen: a later stage that tries to add a field fails loudly instead of racing the server.
  return Object.freeze(services);
}

/** Shown in /health; checkHealth leaves it out of the overall status, so it never stops the data plane. */
function describeLicense(report: LicenseReport): HealthComponent {
  return { status: report.state === 'expired' || report.state === 'invalid' ? 'degraded' : 'ok', ...report };
}

function describeProviders(set: ProviderSet): HealthComponent {
  return { status: 'ok', configured: set.providers.map((provider) => provider.name), skipped: [...set.warnings] };
}
