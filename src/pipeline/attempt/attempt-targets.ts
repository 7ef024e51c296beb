// Stage 6, attempt: the planned targets (plan-targets.ts) tried in turn until one
// answers. A 429, 5xx, time-out or connection failure moves on (after
// the rule's retries with backoff); a 4xx the request caused never does. All of
// this happens before the first byte reaches the client, so nothing is sent twice.
// Every attempt is listed in the audit record (`data.attempts`).
import { GatewayError } from '../../errors.js';
import { backoffMs, isRetryableStatus, parseRetryAfter } from '../../routing/plan-attempts.js';
import type { AuditValue } from '../../audit/record.js';
import type { PipelineRequest } from '../pipeline-types.js';
import type { Target, TargetAttempt } from '../plan/plan-targets.js';
import type { RequestTrace } from '../request-trace.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';

/** What one try produced: its status (known before any byte is relayed) and a way to drop it. */
export interface TryResult {
  status: number;
  retryAfter?: string;
  discard(): void;
}

export async function attemptTargets<T extends TryResult>(
  attempts: readonly TargetAttempt[], request: PipelineRequest, trace: RequestTrace,
  tryTarget: (target: Target, signal: CancelSignal) => Promise<T>,
): Promise<T> {
  const log: AuditValue[] = [];
  for (let index = 0; ; index += 1) {
    const attempt = attempts[index]!;
    const last = index === attempts.length - 1;
    const name = `${attempt.target.provider.name}/${attempt.target.upstreamModel ?? ''}`;
    const { provider } = attempt.target;
    trace.noteProvider(provider.name, { provider: provider.name, kind: provider.kind, preset: provider.preset, model: attempt.target.upstreamModel ?? '' });
    if (attempt.rule !== undefined) trace.noteRule(attempt.rule, name);
    const started = Date.now();
    let retryAfter: number | null;
    const span = trace.span?.startAttempt({ provider: attempt.target.provider.name, kind: attempt.target.provider.kind, model: trace.scrub(attempt.target.upstreamModel) });
    try {
      const result = await withTimeout(attempt.timeoutMs, request.signal, (signal) => tryTarget(attempt.target, signal));
      span?.end({ status: result.status });
      if (attempts.length > 1) log.push({ target: name, status: result.status, ms: Date.now() - started });
      if (last || !isRetryableStatus(result.status)) return finish(result, trace, log);
      retryAfter = parseRetryAfter(result.retryAfter, Date.now());
      result.discard();
    } catch (error) {
      const failure = error instanceof GatewayError ? error : null;
      span?.end({ error: failure?.code ?? 'error', ...(failure?.code === 'GW_ERR_UPSTREAM_REJECTED' ? { status: failure.status } : {}) });
      // Only upstream failures move on: refusals of the request itself (4xx) and client aborts do not.
      if (request.signal.aborted || failure === null || !isUpstreamFailure(failure) || last) {
        if (attempts.length > 1) { log.push({ target: name, error: failure?.code ?? 'error', ms: Date.now() - started }); trace.noteData('attempts', log); }
        throw error;
      }
      log.push({ target: name, error: failure.code, ms: Date.now() - started });
      retryAfter = parseRetryAfter(failure.headers['retry-after'], Date.now());
    }
    trace.noteWarning(`attempt_failed: ${name}`);
    const next = attempts[index + 1]!;
    if (next.retry > 0) await waitFor(backoffMs(next.retry, retryAfter, Math.random), request.signal);
  }
}

function finish<T>(result: T, trace: RequestTrace, log: AuditValue[]): T {
  if (log.length > 0) trace.noteData('attempts', log);
  return result;
}

/** Moves on to the next target: the provider could not be reached or answered, or (a translated target, whose refusal is thrown) refused with 429/5xx. */
function isUpstreamFailure(error: GatewayError): boolean {
  if (error.code === 'GW_ERR_UPSTREAM_REJECTED') return isRetryableStatus(error.status);
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
