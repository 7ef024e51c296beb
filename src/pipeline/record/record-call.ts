// Stage 8, record: after the response (its close): one log line, the metrics, and one
// hash-chained audit record for every request that passed the door. It takes a finished
// call (what the transport knew: status, bytes, whether the client left), read off fastify
// (server/finished-call.ts) or a WebSocket turn (server/responses-websocket-turns.ts).
// Refusals at the door are not recorded here: they are aggregated into auth.refused_burst
// (credentials) and guard.refused_burst (the local guard).
import type { AuditFields } from '../../audit/record.js';
import { pathForLog, type Logger } from '../../logger.js';
import { statusClass } from '../../metrics/gateway-metrics.js';
import type { GatewayServices } from '../gateway-services.js';
import { chargeWithoutHold, settleBudget } from '../plan/hold-budget.js';
import { priceCall, priceWithoutUsage } from '../plan/price-call.js';
import { urlCarriesSecret } from '../../dlp/url-carries-secret.js';
import { chargeCutAtHold, estimateCutCall, needsCutEstimate } from './settle-cut-call.js';
import { NANOS_PER_USD } from '../../spend/price-book.js';
import type { RequestState } from '../request-state.js';
import { readLineage, type Lineage } from '../decode/read-lineage.js';
import type { HeaderBag } from '../decode/read-session.js';
import { callerDlp } from '../govern/govern-request.js';
import { countCacheUse, noteCacheBreak } from './note-cache-use.js';
import { copyWith } from '../../copy-with.js';
import { readGuardrailDecisions } from '../../telemetry/guardrail-decisions.js';

/** 499: nginx's code for "client closed the request", used in audit and logs only. */
export const CLIENT_CLOSED_REQUEST = 499;

function elapsedMs(startedAt: bigint): number {
  return Number((process.hrtime.bigint() - startedAt) / 1_000_000n);
}

/** How long a record waits for a cut stream's relay to report its bytes and usage. */
const SETTLE_BOUND_MS = 10_000;

const requestLoggers = new WeakMap<Logger, Logger>();

/**
 * The per-request line is built below from gw's own fields only (ids, names, counts; the path
 * with its query values masked): no header, body or key ever goes in, so none of the redaction
 * paths can match it. Walking those paths cost ~10 µs per line (a quarter of recordRequest), so
 * this line goes through a child without them; every other log call keeps the parent's redaction.
 */
function requestLogger(logger: Logger): Logger {
  let child = requestLoggers.get(logger);
  if (!child) {
    child = logger.child({}, { redact: [] });
    requestLoggers.set(logger, child);
  }
  return child;
}

/** One finished call as the record stage needs it, read off fastify (server/finished-call.ts) or a WebSocket turn (server/responses-websocket-turns.ts). */
export interface FinishedCall {
  id: string;
  method: string;
  url: string;
  state: RequestState;
  /** The client hung up before the response was complete. */
  clientLeft: boolean;
  status: number;
  origin: string;
  bytesIn: number;
  /** The response's own length, when the trace has no byte count. */
  contentLength: number;
  /** What the session and agent are read from (decode/read-lineage.ts), under the caller's DLP rules; absent: none known. */
  lineageSource?: { headers: HeaderBag; body?: unknown };
}

/**
 * The trace's data, plus where the time went when a response was sent: upstream_ms is the wait
 * for the provider's answer to start, overhead_us gw's own time before the first byte went out,
 * in microseconds since it is often under a millisecond (a record holds integers only; the
 * console's request detail shows both).
 */
function dataOf(data: RequestState['trace']['data'], state: RequestState): AuditFields['data'] {
  if (state.overheadSeconds === null) return Object.keys(data).length > 0 ? { ...data } : undefined;
  return copyWith(data, { upstream_ms: Number(state.trace.upstreamNanos / 1_000_000n), overhead_us: Math.round(state.overheadSeconds * 1e6) });
}

export async function recordCall(services: GatewayServices, call: FinishedCall): Promise<void> {
  const { state, clientLeft } = call;
  const trace = state.trace;
  if (trace.settled) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([trace.settled, new Promise((resolve) => { timer = setTimeout(resolve, SETTLE_BOUND_MS); })]);
    clearTimeout(timer);
  }
  const status = clientLeft ? CLIENT_CLOSED_REQUEST : call.status;
  const latencyMs = elapsedMs(state.startedAt);
  if (clientLeft && !trace.outcome.includes('client_disconnected')) trace.noteOutcome('client_disconnected');
  if (trace.outcome.length === 0) trace.noteOutcome(status < 400 ? 'ok' : `http_${status}`);

  const labels = { family: state.dialect, operation: state.operation };
  services.metrics.requests.inc({ family: state.dialect, operation: state.operation, status_class: statusClass(status, trace.outcome) });
  services.metrics.requestDuration.observe(labels, latencyMs / 1000);
  if (state.overheadSeconds !== null) services.metrics.overhead.observe(labels, state.overheadSeconds);
  observeFirstByte(services, labels, state);

  const identity = state.identity;
  // A held call cut before its usage came is charged gw's estimate, never 0 (the first such call loads the tokenizer).
  if (needsCutEstimate(trace)) {
    await estimateCutCall(trace, { operation: state.operation, rawBody: state.rawBody, bytesIn: call.bytesIn })
      .catch((error: unknown) => services.logger.error({ request_id: call.id, err: error instanceof Error ? error.message : String(error) }, 'cut call not estimated'));
    chargeCutAtHold(trace, priceCall(services, trace));
  }
  const cost = priceCall(services, trace) ?? priceWithoutUsage(services, trace, status);
  // The spend and cache metrics' labels: the model as the price table names it.
  const spendLabels = { team: identity?.team ?? '', provider: trace.provider ?? '', model: trace.scrub(cost?.priced_as ?? '') };
  if (cost?.nano_usd !== undefined) services.metrics.cost.inc(spendLabels, cost.nano_usd / NANOS_PER_USD);
  else if (cost) services.metrics.unpriced.inc({ provider: spendLabels.provider });
  const lineage = lineageOf(services, call);
  const session = lineage?.session;
  const cacheBroken = session ? noteCacheBreak(services, session, trace, status) : false;
  if (cacheBroken || trace.tokens?.input) countCacheUse(services.metrics, spendLabels, trace.tokens, cost, cacheBroken);
  if (trace.budget) settleBudget(services, trace).catch((error: unknown) => services.logger.error({ request_id: call.id, err: error instanceof Error ? error.message : String(error) }, 'budget settle failed'));
  // A batch's usage, or a multipart media call (its model known only from its form): no hold to settle, so charged now.
  else if (cost?.nano_usd && identity) chargeWithoutHold(services, identity, cost.nano_usd, call.id).catch((error: unknown) => services.logger.error({ request_id: call.id, err: error instanceof Error ? error.message : String(error) }, 'spend not counted against budgets'));
  // What is written below passes trace.scrub: no text DLP matched outside the body (a model, a header) is written.
  trace.span?.end(trace.scrub({
    status, model: trace.model, provider: trace.provider, tokens: trace.tokens, team: identity?.team ?? null,
    person: identity?.person ?? null, keyId: identity?.keyId ?? null, outcome: trace.outcome,
    session: lineage?.session ?? null, agent: lineage?.agent ?? null, guardrails: readGuardrailDecisions(trace),
  }));
  requestLogger(services.logger).info(trace.scrub({
    request_id: call.id, method: call.method, path: pathToLog(call.url, state), family: state.dialect,
    operation: state.operation, status, latency_ms: latencyMs, team: identity?.team, key_id: identity?.keyId ?? undefined,
    model: trace.usageModel ?? undefined, rule: trace.rule ?? undefined, provider: trace.provider ?? undefined, outcome: trace.outcome, trace_id: trace.data.trace_id ?? undefined,
  }), 'request');

  if (state.refusedAtDoor || !state.route?.authenticated) return;
  // Telemetry batches are records of their own kind: not calls, so spend and the console's call lists skip them.
  const kind = state.operation.startsWith('telemetry.') ? 'telemetry' : 'request';
  const fields: AuditFields = {
    kind,
    request_id: call.id,
    origin: call.origin,
    team: identity?.team,
    key_id: identity?.keyId ?? undefined,
    person: identity?.person ?? undefined,
    route: state.route.url,
    family: state.dialect,
    operation: state.operation,
    model: trace.usageModel ?? undefined,
    provider: trace.provider ?? undefined,
    rule: trace.rule ?? undefined,
    status,
    latency_ms: latencyMs,
    bytes_in: call.bytesIn,
    bytes_out: trace.bytesOut ?? call.contentLength,
    tokens: trace.tokens ?? undefined,
    outcome: [...trace.outcome],
    warnings: warningsOf(trace.warnings, lineage),
    dlp: trace.dlp,
    data: dataOf(trace.data, state),
    cost: cost ?? undefined,
    session: lineage?.session ?? undefined,
    agent: lineage?.agent ?? undefined,
  };
  services.audit.append(trace.scrub(fields)).then(
    () => services.metrics.auditRecords.inc({ kind }),
    (error: unknown) => {
      services.metrics.auditWriteErrors.inc();
      services.logger.error({ request_id: call.id, err: error instanceof Error ? error.message : String(error) }, 'audit append failed');
    },
  );
}

/** The session and agent the record may carry: checked against the caller's own DLP rules, as resolved for its scope. */
function lineageOf(services: GatewayServices, call: FinishedCall): Lineage | undefined {
  if (call.lineageSource === undefined) return undefined;
  const identity = call.state.identity;
  const dlp = identity ? callerDlp(services, identity.team, identity.keyId) : null;
  return readLineage(call.lineageSource.headers, call.lineageSource.body, dlp);
}

function warningsOf(warnings: readonly string[], lineage: Lineage | undefined): string[] | undefined {
  const all = lineage && lineage.warnings.length > 0 ? [...warnings, ...lineage.warnings] : [...warnings];
  return all.length > 0 ? all : undefined;
}

/**
 * The path for the log line: a URL in which DLP matched something (or, when no rule ran
 * on it, in which the built-in rules match something) is logged as its route's pattern,
 * so the line never carries the matched text.
 */
function pathToLog(url: string, state: RequestState): string {
  const verdict = state.trace.url;
  if (verdict === 'withheld' || (verdict === 'unscanned' && urlCarriesSecret(url))) {
    return `${state.route?.url ?? '/'}${url.includes('?') ? '?…' : ''} (withheld: DLP matched the URL)`;
  }
  return pathForLog(url);
}

/** Streams: the client's time to first byte, and gw's part of it (the provider's own first-byte time taken out). */
function observeFirstByte(services: GatewayServices, labels: { family: string; operation: string }, state: RequestState): void {
  const { clientFirstByteAt, upstreamSentAt, upstreamFirstByteAt } = state.trace;
  if (clientFirstByteAt === null) return;
  const total = Number(clientFirstByteAt - state.startedAt) / 1e9;
  services.metrics.streamFirstByte.observe(labels, total);
  if (upstreamSentAt === null || upstreamFirstByteAt === null) return;
  const provider = Number(upstreamFirstByteAt - upstreamSentAt) / 1e9;
  services.metrics.streamFirstByteAdded.observe(labels, Math.max(0, total - provider));
}
