// A call's guardrails for one phase, run concurrently, each within its own time-out, and their
// verdicts merged: the strictest wins (block, then a fail-closed failure, then rewrite, then
// allow). A time-out, a failure to connect, an error status or an unreadable answer is the
// guardrail's on_error: open lets the call through, closed refuses it; either way it is a
// decision of its own in the record. Several rewrites apply text by text, the first guardrail by
// name winning a text both changed.
import type { Readable } from 'node:stream';
import { boundHostAllows } from '../state/bound-host.js';
import type { StoredGuardrail } from '../state/guardrails.js';
import type { CancelSignal } from '../upstream/cancel-signal.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { GUARDRAIL_KIND_TABLE } from './guardrail-kinds.js';
import type { GuardrailTarget } from './guardrail-kind.js';
import { UnreadableVerdict, type GuardInput, type GuardPhase, type SendGuardrailCall, type Verdict } from './guardrail-verdict.js';

export type GuardFailure = 'timeout' | 'unreachable' | 'unreadable' | 'no_credential';

/** One guardrail's decision, as the record keeps it: never a text it judged, nor its free-text reason. */
export interface GuardDecision {
  guardrail: string;
  kind: string;
  phase: GuardPhase;
  verdict: 'allow' | 'block' | 'rewrite' | 'error';
  latency_ms: number;
  /** What went wrong, and what on_error made of it. */
  error?: GuardFailure;
  failed?: 'open' | 'closed';
}

export type GuardResult =
  | { action: 'allow' }
  | { action: 'block'; guardrail: string; reason: string }
  | { action: 'unavailable'; guardrail: string; error: GuardFailure }
  | { action: 'rewrite'; texts: Array<string | null>; guardrails: string[] };

export interface GuardOutcome {
  decisions: GuardDecision[];
  result: GuardResult;
}

export interface GuardrailRunner {
  /** The guardrails that apply to a caller in a phase: every scope that names it (`*`, its team, its key), by name. */
  applicable(guardrails: readonly StoredGuardrail[], team: string, keyId: string | null, phase: GuardPhase): StoredGuardrail[];
  run(guardrails: readonly StoredGuardrail[], input: GuardInput, signal: CancelSignal): Promise<GuardOutcome>;
}

/** The most a guardrail's answer may weigh: a verdict is small. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export function createGuardrailRunner(upstream: UpstreamClient, env: Readonly<Record<string, string | undefined>>): GuardrailRunner {
  return {
    applicable(guardrails, team, keyId, phase) {
      return guardrails.filter((guardrail) => (guardrail.when === 'both' || guardrail.when === phase)
        && (guardrail.scope === '*' || guardrail.scope === `team:${team}` || (keyId !== null && guardrail.scope === `key:${keyId}`)))
        .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    },
    async run(guardrails, input, signal) {
      const judged = await Promise.all(guardrails.map((guardrail) => judgeOne(guardrail, input, signal, upstream, env)));
      return { decisions: judged.map((one) => one.decision), result: mergeVerdicts(judged, input.texts.length) };
    },
  };
}

interface Judged { decision: GuardDecision; verdict: Verdict | null }

async function judgeOne(guardrail: StoredGuardrail, input: GuardInput, signal: CancelSignal, upstream: UpstreamClient, env: Readonly<Record<string, string | undefined>>): Promise<Judged> {
  const started = performance.now();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => { controller.abort(new Error('guardrail time-out')); resolve('timeout'); }, guardrail.timeout_ms); });
  const decide = (verdict: Verdict | null, error?: GuardFailure): Judged => ({
    verdict,
    decision: {
      guardrail: guardrail.name, kind: guardrail.kind, phase: input.phase, verdict: verdict?.action ?? 'error', latency_ms: Math.round(performance.now() - started),
      ...(error === undefined ? {} : { error, failed: guardrail.on_error }),
    },
  });
  try {
    const credential = resolveCredential(guardrail, env);
    if (credential === undefined) return decide(null, 'no_credential');
    const target: GuardrailTarget = { config: guardrail, credential, env };
    const send = createSender(upstream, controller.signal);
    const judging = GUARDRAIL_KIND_TABLE[guardrail.kind].judge(target, input, send);
    // Once the time-out has won, the judge's own failure (its call aborted) is nobody's to hear.
    judging.catch(() => undefined);
    const verdict = await Promise.race([judging, timedOut]);
    return verdict === 'timeout' ? decide(null, 'timeout') : decide(verdict);
  } catch (error) {
    if (controller.signal.aborted && !signal.aborted) return decide(null, 'timeout');
    return decide(null, error instanceof UnreadableVerdict ? 'unreadable' : 'unreachable');
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** The credential's value; null when none is set; undefined when it cannot be had (unset variable, or a URL moved to another host). */
function resolveCredential(guardrail: StoredGuardrail, env: Readonly<Record<string, string | undefined>>): string | null | undefined {
  const reference = guardrail.credential;
  if (reference === undefined) return null;
  if (!boundHostAllows(guardrail.credential_host, guardrail.url)) return undefined;
  const variable = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(reference)?.[1];
  if (variable === undefined) return reference;
  const value = env[variable];
  return value === undefined || value === '' ? undefined : value;
}

function createSender(upstream: UpstreamClient, signal: AbortSignal): SendGuardrailCall {
  return async (call) => {
    const response = await upstream.send({ url: call.url, method: 'POST', headers: call.headers, body: call.body, signal });
    const text = await readBounded(response.body);
    let json: unknown;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { status: response.status, json };
  };
}

async function readBounded(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      throw new UnreadableVerdict('the answer is too large');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function mergeVerdicts(judged: readonly Judged[], textCount: number): GuardResult {
  for (const { decision, verdict } of judged) if (verdict?.action === 'block') return { action: 'block', guardrail: decision.guardrail, reason: verdict.reason };
  for (const { decision } of judged) {
    if (decision.error !== undefined && decision.failed === 'closed') return { action: 'unavailable', guardrail: decision.guardrail, error: decision.error };
  }
  const texts: Array<string | null> = new Array<string | null>(textCount).fill(null);
  const rewriters: string[] = [];
  for (const { decision, verdict } of judged) {
    if (verdict?.action !== 'rewrite') continue;
    rewriters.push(decision.guardrail);
    verdict.texts.forEach((text, index) => { if (text !== null && texts[index] === null && index < textCount) texts[index] = text; });
  }
  return rewriters.length === 0 ? { action: 'allow' } : { action: 'rewrite', texts, guardrails: rewriters };
}
