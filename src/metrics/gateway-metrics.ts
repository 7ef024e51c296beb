// The only importer of prom-client. Its own registry (never the global one), names
// prefixed gw_, and only bounded labels: family, operation, status class, reason.
// Never a key id, team or user id as a label.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface GatewayMetrics {
  registry: Registry;
  requests: Counter<'family' | 'operation' | 'status_class'>;
  /** MCP tool calls through /mcp, by server, tool and outcome (ok, tool_error, refused, blocked, unavailable, upstream_error). */
  mcpCalls: Counter<'server' | 'tool' | 'outcome'>;
  /** How long each MCP tool call took through gw, by server and tool. */
  mcpCallDuration: Histogram<'server' | 'tool'>;
  /** OTLP batches clients posted to /v1/{traces,metrics,logs}, by signal and outcome (accepted, blocked, invalid, too_large). */
  telemetryBatches: Counter<'signal' | 'outcome'>;
  /** Spans, metric data points and log records in the accepted batches, by signal. */
  telemetryItems: Counter<'signal'>;
  /** Accepted batches at the OTLP collector, by signal and outcome (relayed, rejected, unreachable, queue_full: the last three dropped). */
  telemetryRelay: Counter<'signal' | 'outcome'>;
  /** External guardrail decisions (docs/guardrails.md), by guardrail, phase (pre, post) and verdict (allow, block, rewrite, error). */
  guardrailDecisions: Counter<'guardrail' | 'phase' | 'verdict'>;
  /** How long each guardrail took to answer (or to time out), by guardrail and phase. */
  guardrailDuration: Histogram<'guardrail' | 'phase'>;
  requestDuration: Histogram<'family' | 'operation'>;
  overhead: Histogram<'family' | 'operation'>;
  streamFirstByte: Histogram<'family' | 'operation'>;
  streamFirstByteAdded: Histogram<'family' | 'operation'>;
  eventLoopQueue: Histogram;
  authRefusals: Counter<'reason'>;
  refusedOriginsTracked: Gauge;
  auditRecords: Counter<'kind'>;
  auditWriteErrors: Counter;
  translationDrops: Counter<'code'>;
  /** Spend: USD by team, provider and the model as the price table names it (bounded; unpriced calls count apart). */
  cost: Counter<'team' | 'provider' | 'model'>;
  unpriced: Counter<'provider'>;
  /** Prompt cache (docs/prompt-cache.md): tokens read from and written to the providers' caches, what that saved, and sessions moved off their cache. */
  /** Every input token (cached ones included), so gw_cache_read_tokens_total / gw_input_tokens_total is the hit ratio. */
  inputTokens: Counter<'team' | 'provider' | 'model'>;
  cacheReadTokens: Counter<'team' | 'provider' | 'model'>;
  cacheWriteTokens: Counter<'team' | 'provider' | 'model'>;
  cacheSaved: Gauge<'team' | 'provider' | 'model'>;
  cacheBreaks: Counter<'team' | 'provider'>;
  render(): Promise<string>;
}

export function createGatewayMetrics(options: { processMetrics?: boolean } = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'gw_' });
  const registers = [registry];
  const metrics: Omit<GatewayMetrics, 'render'> = {
    registry,
    mcpCalls: new Counter({
      name: 'gw_mcp_calls_total', help: 'MCP tool calls through /mcp, by server, tool and outcome.', labelNames: ['server', 'tool', 'outcome'], registers,
    }),
    mcpCallDuration: new Histogram({
      name: 'gw_mcp_call_duration_seconds', help: 'MCP tool calls through /mcp: time from the call to its answer (or refusal), by server and tool.',
      labelNames: ['server', 'tool'], registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    }),
    telemetryBatches: new Counter({
      name: 'gw_telemetry_batches_total', help: 'OTLP batches posted to /v1/traces, /v1/metrics and /v1/logs, by signal and outcome (accepted, blocked, invalid, too_large).',
      labelNames: ['signal', 'outcome'], registers,
    }),
    telemetryItems: new Counter({
      name: 'gw_telemetry_items_total', help: 'Spans, metric data points and log records in the accepted OTLP batches, by signal.', labelNames: ['signal'], registers,
    }),
    telemetryRelay: new Counter({
      name: 'gw_telemetry_relay_total', help: 'Accepted OTLP batches at the configured collector, by signal and outcome (relayed; rejected, unreachable and queue_full are dropped).',
      labelNames: ['signal', 'outcome'], registers,
    }),
    guardrailDecisions: new Counter({
      name: 'gw_guardrail_decisions_total', help: 'External guardrail decisions, by guardrail, phase (pre, post) and verdict (allow, block, rewrite, error).',
      labelNames: ['guardrail', 'phase', 'verdict'], registers,
    }),
    guardrailDuration: new Histogram({
      name: 'gw_guardrail_duration_seconds', help: 'Time an external guardrail took to give its verdict (or to time out), by guardrail and phase.',
      labelNames: ['guardrail', 'phase'], registers,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    requests: new Counter({
      name: 'gw_requests_total', help: 'Requests served, by family, operation and status class (2xx…5xx; polling: a device-login poll told to wait).',
      labelNames: ['family', 'operation', 'status_class'], registers,
    }),
    requestDuration: new Histogram({
      name: 'gw_request_duration_seconds', help: 'Time from request start to the last byte of the response.',
      labelNames: ['family', 'operation'], registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    }),
    overhead: new Histogram({
      name: 'gw_overhead_seconds', help: "gw's own time per request, excluding the wait for the provider.",
      labelNames: ['family', 'operation'], registers,
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    }),
    streamFirstByte: new Histogram({
      name: 'gw_stream_first_byte_seconds', help: 'Streams: time from request start to the first byte sent to the client.',
      labelNames: ['family', 'operation'], registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
    streamFirstByteAdded: new Histogram({
      name: 'gw_stream_first_byte_added_seconds', help: "Streams: the part of the time to first byte gw added (the provider's own time to its first byte taken out).",
      labelNames: ['family', 'operation'], registers,
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    }),
    eventLoopQueue: new Histogram({
      name: 'gw_event_loop_queue_seconds', help: "How long work that is ready waits before gw's handlers run (a timer's lateness, sampled every 100 ms): the time an arriving request is queued.",
      registers, buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    }),
    authRefusals: new Counter({
      name: 'gw_auth_refusals_total', help: 'Requests refused at the door, by reason.', labelNames: ['reason'], registers,
    }),
    refusedOriginsTracked: new Gauge({
      name: 'gw_auth_refused_origins', help: 'Origins with an open auth.refused_burst window.', registers,
    }),
    auditRecords: new Counter({
      name: 'gw_audit_records_total', help: 'Audit records written, by kind.', labelNames: ['kind'], registers,
    }),
    auditWriteErrors: new Counter({
      name: 'gw_audit_write_errors_total', help: 'Audit appends that failed.', registers,
    }),
    translationDrops: new Counter({
      name: 'gw_translation_warnings_total', help: 'What translation dropped or mapped, by warning code (a bounded set).',
      labelNames: ['code'], registers,
    }),
    cost: new Counter({
      name: 'gw_cost_usd_total', help: 'What calls cost in USD, by team, provider and the model as the price table names it.',
      labelNames: ['team', 'provider', 'model'], registers,
    }),
    unpriced: new Counter({
      name: 'gw_cost_unknown_total', help: 'Calls with usage but no known price (recorded as unknown, never 0), by provider.',
      labelNames: ['provider'], registers,
    }),
    ...cacheMetrics(registers),
  };
  return { ...metrics, render: () => registry.metrics() };
}

/** The prompt cache's metrics; labels as gw_cost_usd_total's (the model as the price table names it). */
function cacheMetrics(registers: Registry[]): Pick<GatewayMetrics, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'cacheSaved' | 'cacheBreaks'> {
  const labelNames = ['team', 'provider', 'model'] as const;
  return {
    inputTokens: new Counter({ name: 'gw_input_tokens_total', help: 'Input tokens of every call, cached ones included (the hit ratio is gw_cache_read_tokens_total over this), by team, provider and priced model.', labelNames, registers }),
    cacheReadTokens: new Counter({ name: 'gw_cache_read_tokens_total', help: "Input tokens read from the provider's prompt cache, by team, provider and priced model.", labelNames, registers }),
    cacheWriteTokens: new Counter({ name: 'gw_cache_write_tokens_total', help: "Input tokens written to the provider's prompt cache (5-minute and 1-hour writes), by team, provider and priced model.", labelNames, registers }),
    cacheSaved: new Gauge({
      name: 'gw_cache_saved_usd', help: 'What the prompt cache saved in USD since start (the calls priced without a cache minus their cost; negative when writes cost more than reads saved).',
      labelNames, registers,
    }),
    cacheBreaks: new Counter({ name: 'gw_cache_breaks_total', help: 'Calls of a session served by another target than its previous call (a fallback or a route change): the provider cache starts cold.', labelNames: ['team', 'provider'], registers }),
  };
}

/** RFC 8628 "keep polling" answers: HTTP 400 by the RFC, but a login in progress, not an error. */
const POLLING_OUTCOMES: ReadonlySet<string> = new Set(['authorization_pending', 'slow_down']);

/**
 * The status_class label: 2xx…5xx, or `polling` for a device-login poll told to keep
 * waiting, so every poll of a person reading the verification page is not a 4xx.
 */
export function statusClass(status: number, outcome: readonly string[] = []): string {
  if (outcome.some((code) => POLLING_OUTCOMES.has(code))) return 'polling';
  return `${Math.floor(status / 100)}xx`;
}

/**
 * Feeds gw_event_loop_queue_seconds: a timer due every `intervalMs` notes how late it ran. A request
 * that arrives while the loop is busy waits just as long before gw reads it. Returns the stop.
 */
export function sampleEventLoopQueue(histogram: Histogram, intervalMs = 100): () => void {
  let due = performance.now() + intervalMs;
  const timer = setInterval(() => {
    const now = performance.now();
    histogram.observe(Math.max(0, now - due) / 1000);
    due = now + intervalMs;
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
