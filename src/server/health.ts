// GET /health: {"status":"ok"|"degraded"|"down","components":{...}}. 200 for ok and
// degraded, 503 for down. The license never turns the status: the data plane keeps
// serving whatever the license says (spec: "What the service does", 4).
import type { HealthComponent } from '../metrics/health-component.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  components: Record<string, HealthComponent>;
}

function stateComponent(services: GatewayServices): HealthComponent {
  const error = services.state.lastError?.() ?? null;
  const health = services.state.health?.();
  const store = health ? {
    store: health.kind,
    ...(health.version !== undefined ? { version: health.version, synced_ms_ago: health.synced_ms_ago } : {}),
    ...(health.mtime_ns !== undefined ? { mtime_ns: health.mtime_ns } : {}),
    ...(health.file_id !== undefined ? { file_id: health.file_id } : {}),
  } : {};
  return error ? { status: 'degraded', reason: `state unreadable, serving the last good copy: ${error.message}`, ...store } : { status: 'ok', ...store };
}

function auditComponent(services: GatewayServices): HealthComponent {
  const audit = services.audit.status();
  if (audit.ok) return { status: 'ok' };
  const policy = services.state.snapshot().settings.audit_failure;
  // With audit_failure=block the data plane refuses requests, so the gateway is down.
  return { status: policy === 'block' ? 'down' : 'degraded', reason: audit.reason ?? 'audit trail not writable', audit_failure: policy };
}

export function checkHealth(services: GatewayServices): HealthReport {
  const components: Record<string, HealthComponent> = {
    state: stateComponent(services),
    audit: auditComponent(services),
    ...services.healthComponents?.(),
  };
  const statuses = Object.entries(components).filter(([name]) => name !== 'license').map(([, component]) => component.status);
  const status = statuses.includes('down') ? 'down' : statuses.includes('degraded') ? 'degraded' : 'ok';
  return { status, components };
}
