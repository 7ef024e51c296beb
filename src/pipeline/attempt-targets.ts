// Routing rules at run time: the targets to try (a rule's weighted targets with
// session affinity, or the one provider the model names), each tried in turn
// until one answers. A 429, 5xx, time-out or connection failure moves on (after
// the rule's retries with backoff); a 4xx the request caused never does. All of
// this happens before the first byte reaches the client, so nothing is sent twice.
// Every attempt is listed in the audit record (`data.attempts`).
import { GatewayError } from '../errors.js';
import { refuseProvider } from '../policy/evaluate-policy.js';
import { resolveModel } from '../routing/resolve-model.js';
import { backoffMs, isRetryableStatus, parseRetryAfter, planAttempts, type PlannedAttempt } from '../routing/plan-attempts.js';
import type { RouteRule } from '../routing/route-rule.js';
import type { AuditValue } from '../audit/record.js';
import { chooseTarget, type Target } from './choose-target.js';
import type { GatewayServices } from './gateway-services.js';
import type { Governed } from './govern-request.js';
import type { PipelineFacts, PipelineRequest } from './pipeline-types.js';
import type { InboundCall } from './read-inbound-call.js';
import type { CancelSignal } from '../upstream/cancel-signal.js';

export interface TargetAttempt {
  target: Target;
  retry: number;
  timeoutMs?: number;
}

/** What one try produced: its status (known before any byte is relayed) and a way to drop it. */
export interface TryResult {
  status: number;
  retryAfter?: string;
  discard(): void;
}

/** Headers clients use to name a session (Claude Code sends the first on every request). */
const SESSION_HEADERS = ['x-claude-code-session-id', 'x-session-affinity', 'x-session-id', 'session-id', 'x-gw-session'];

export function planTargets(inbound: InboundCall, request: PipelineRequest, services: GatewayServices, governed: Governed): TargetAttempt[] {
  const set = services.providers();
  const rule = (services.state.snapshot().routes ?? []).find((candidate: RouteRule) => candidate.name === inbound.model);
  let attempts: TargetAttempt[];
  if (rule && inbound.operation !== 'passthrough') {
    const planned = planAttempts(rule, { random: Math.random, sessionId: sessionOf(request) });
    attempts = planned.flatMap((attempt) => toTargetAttempt(attempt, set.providers, set.aliases, set.routeKeys ?? {}));
    if (attempts.length === 0) throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', { message: `Route "${rule.name}" has no usable target (see gw routes list).` });
  } else {
    attempts = [{ target: chooseTarget(inbound, set, request.family), retry: 0 }];
  }
  attempts = filterByPolicy(attempts, governed);
  if (governed.directKey !== null) {
    attempts = attempts.map((attempt) => ({ ...attempt, target: { ...attempt.target, provider: { ...attempt.target.provider, apiKey: governed.directKey } } }));
  }
  return attempts;
}

function toTargetAttempt(attempt: PlannedAttempt, providers: Parameters<typeof resolveModel>[1], aliases: Readonly<Record<string, string>>, keys: Readonly<Record<string, string>>): TargetAttempt[] {
  const { target } = attempt;
  if (target.key !== undefined && keys[target.key] === undefined) return [];
  const route = resolveModel(target.model, providers, aliases);
  const provider = target.key === undefined ? route.provider : { ...route.provider, apiKey: keys[target.key]! };
  return [{ target: { provider, upstreamModel: route.upstreamModel }, retry: attempt.retry, ...(target.timeout_ms ? { timeoutMs: target.timeout_ms } : {}) }];
}

function filterByPolicy(attempts: TargetAttempt[], governed: Governed): TargetAttempt[] {
  if (governed.policies.length === 0) return attempts;
  const kept = attempts.filter((attempt) => {
    const refusal = refuseProvider(governed.policies, attempt.target.provider.name);
    return refusal === null || refusal.shadow;
  });
  if (kept.length > 0) return kept;
  const refusal = refuseProvider(governed.policies, attempts[0]!.target.provider.name);
  throw new GatewayError('GW_ERR_POLICY_DENIED', { message: `Refused by ${refusal?.reason ?? 'policy'}.` });
}

function sessionOf(request: PipelineRequest): string | null {
  for (const name of SESSION_HEADERS) {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) return text;
  }
  return null;
}

export async function attemptTargets<T extends TryResult>(
  attempts: readonly TargetAttempt[], request: PipelineRequest, facts: PipelineFacts,
  tryTarget: (target: Target, signal: CancelSignal) => Promise<T>,
): Promise<T> {
  const log: AuditValue[] = [];
  for (let index = 0; ; index += 1) {
    const attempt = attempts[index]!;
    const last = index === attempts.length - 1;
    const name = `${attempt.target.provider.name}/${attempt.target.upstreamModel ?? ''}`;
    facts.provider = attempt.target.provider.name;
    const started = Date.now();
    let retryAfter: number | null = null;
    try {
      const result = await withTimeout(attempt.timeoutMs, request.signal, (signal) => tryTarget(attempt.target, signal));
      if (attempts.length > 1) log.push({ target: name, status: result.status, ms: Date.now() - started });
      if (last || !isRetryableStatus(result.status)) return finish(result, facts, log);
      retryAfter = parseRetryAfter(result.retryAfter, Date.now());
      result.discard();
    } catch (error) {
      const failure = error instanceof GatewayError ? error : null;
      // Only upstream failures move on: refusals of the request itself (4xx) and client aborts do not.
      if (request.signal.aborted || failure === null || !isUpstreamFailure(failure) || last) {
        if (attempts.length > 1) { log.push({ target: name, error: failure?.code ?? 'error', ms: Date.now() - started }); facts.data.attempts = log; }
        throw error;
      }
      log.push({ target: name, error: failure.code, ms: Date.now() - started });
    }
    facts.warnings.push(`attempt_failed: ${name}`);
    const next = attempts[index + 1]!;
    if (next.retry > 0) await waitFor(backoffMs(next.retry, retryAfter, Math.random), request.signal);
  }
}

function finish<T>(result: T, facts: PipelineFacts, log: AuditValue[]): T {
  if (log.length > 0) facts.data.attempts = log;
  return result;
}

function isUpstreamFailure(error: GatewayError): boolean {
  return error.code === 'GW_ERR_UPSTREAM_UNREACHABLE' || error.code === 'GW_ERR_UPSTREAM_TIMEOUT' || error.code === 'GW_ERR_UPSTREAM_BAD_RESPONSE';
}

/** A per-target time-out on getting an answer (response headers); the body, once flowing, is not cut by it. */
async function withTimeout<T>(timeoutMs: number | undefined, parent: CancelSignal, run: (signal: CancelSignal) => Promise<T>): Promise<T> {
  // Without a time-out a child signal would only mirror the client's: hand that on as it is.
  // An AbortController (and its listener) per attempt was a measurable share of each request.
  if (!timeoutMs) return run(parent);
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = timeoutMs ? setTimeout(() => { timedOut = true; controller.abort(new Error('target time-out')); }, timeoutMs) : undefined;
  try {
    return await run(controller.signal);
  } catch (error) {
    if (timedOut) throw new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', { message: `The provider did not answer within ${timeoutMs} ms.`, cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    // The body keeps following the client: only the time-out stops at the headers.
  }
}

function waitFor(ms: number, signal: CancelSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { signal.removeEventListener('abort', stop); resolve(); }, ms);
    const stop = () => { clearTimeout(timer); reject(signal.reason); };
    signal.addEventListener('abort', stop, { once: true });
  });
}
