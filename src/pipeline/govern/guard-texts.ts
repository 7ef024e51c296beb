// External guardrails on a call's texts (docs/guardrails.md), for every surface: a request's body
// before it leaves (pre, here in govern, after DLP, so a guardrail sees what DLP let through), an
// answer before the client gets it (post, relay/guard-reply.ts), an MCP tool call's arguments and
// its result (src/mcp). Each decision goes in the record and /metrics; a block or a fail-closed
// failure is thrown as gw's error in the caller's dialect; a rewrite is handed back.
import { GatewayError } from '../../errors.js';
import type { GuardPhase, GuardText } from '../../guardrails/guardrail-verdict.js';
import { createGuardrailRunner, type GuardrailRunner } from '../../guardrails/run-guardrails.js';
import { applyRewrite, collectTexts } from '../../guardrails/collect-texts.js';
import type { StoredGuardrail } from '../../state/guardrails.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PipelineRequest } from '../pipeline-types.js';
import type { RequestTrace } from '../request-trace.js';
import { readSession } from '../decode/read-session.js';

export interface GuardContext {
  request: PipelineRequest;
  services: GatewayServices;
  trace: RequestTrace;
  model: string | null;
  operation: string;
}

const fallbackRunners = new WeakMap<GatewayServices, GuardrailRunner>();

function runnerOf(services: GatewayServices): GuardrailRunner {
  if (services.guardrails) return services.guardrails;
  let runner = fallbackRunners.get(services);
  if (!runner) {
    runner = createGuardrailRunner(services.upstream, {});
    fallbackRunners.set(services, runner);
  }
  return runner;
}

/** The guardrails that apply to this caller in `phase`; empty (the usual case) costs one filter of an empty list. */
export function guardrailsFor(context: Pick<GuardContext, 'request' | 'services'>, phase: GuardPhase): StoredGuardrail[] {
  const stored = context.services.state.snapshot().guardrails;
  if (stored === undefined || stored.length === 0) return [];
  const { team, keyId } = context.request.identity;
  return runnerOf(context.services).applicable(stored, team, keyId, phase);
}

/**
 * Runs `guardrails` on `texts`; throws GW_ERR_GUARDRAIL_BLOCKED or _UNAVAILABLE; returns the
 * rewritten texts (one per text, null where unchanged), or null when nothing is rewritten.
 */
export async function guardTexts(context: GuardContext, guardrails: readonly StoredGuardrail[], phase: GuardPhase, texts: readonly GuardText[]): Promise<Array<string | null> | null> {
  if (guardrails.length === 0 || texts.length === 0) return null;
  const { request, services, trace } = context;
  const input = {
    phase, texts, model: context.model, operation: context.operation, team: request.identity.team, keyId: request.identity.keyId,
    person: request.identity.person, session: readSession(request.headers, phase === 'pre' ? request.body : undefined).session, requestId: request.id,
  };
  const outcome = await runnerOf(services).run(guardrails, input, request.signal);
  for (const decision of outcome.decisions) {
    trace.noteGuardrail(decision);
    services.metrics.guardrailDecisions.inc({ guardrail: decision.guardrail, phase, verdict: decision.verdict });
    services.metrics.guardrailDuration.observe({ guardrail: decision.guardrail, phase }, decision.latency_ms / 1000);
    if (decision.error !== undefined) trace.noteWarning(`guardrail_failed_${decision.failed ?? 'open'}: ${decision.guardrail} ${decision.error}`);
  }
  const result = outcome.result;
  if (result.action === 'block') {
    throw new GatewayError('GW_ERR_GUARDRAIL_BLOCKED', { message: `${phase === 'pre' ? 'This request was' : 'The response was'} refused by guardrail "${result.guardrail}": ${result.reason}` });
  }
  if (result.action === 'unavailable') {
    throw new GatewayError('GW_ERR_GUARDRAIL_UNAVAILABLE', {
      message: `Guardrail "${result.guardrail}" gave no verdict (${result.error.replace(/_/g, ' ')}) and is set to fail closed; retry, or ask an admin (gw guardrails list).`,
    });
  }
  if (result.action === 'rewrite') {
    trace.noteWarning(`guardrail_rewrote_${phase}: ${result.guardrails.join(',')}`);
    return result.texts;
  }
  return null;
}

/** Stage 4's pre-call guardrails over the parsed body (after DLP's redactions): a rewrite is what leaves. */
export async function guardRequestBody(context: GuardContext): Promise<void> {
  const guardrails = guardrailsFor(context, 'pre');
  if (guardrails.length === 0) return;
  const { request, trace } = context;
  const body = request.body;
  if (typeof body !== 'string' && !Array.isArray(body) && (typeof body !== 'object' || body === null || Buffer.isBuffer(body) || Symbol.asyncIterator in body)) {
    if (body !== undefined && body !== null) trace.noteWarning('guardrails_unread: body');
    return;
  }
  const collected = collectTexts(body);
  const rewritten = await guardTexts(context, guardrails, 'pre', collected.texts);
  if (rewritten === null) return;
  request.body = applyRewrite(body, collected, rewritten);
  // What leaves is the rewritten object, serialised: the client's bytes no longer say it.
  request.rawBody = Buffer.from(JSON.stringify(request.body));
  request.rawKeysUnique = true;
}

/**
 * A message's value judged and, on a rewrite, changed in place (an MCP tool call's arguments, its
 * result): the same texts and places as a body. Throws as guardTexts does.
 */
export async function guardValueInPlace(context: GuardContext, phase: GuardPhase, value: unknown): Promise<void> {
  const guardrails = guardrailsFor(context, phase);
  if (guardrails.length === 0 || typeof value !== 'object' || value === null) return;
  const collected = collectTexts(value);
  const rewritten = await guardTexts(context, guardrails, phase, collected.texts);
  if (rewritten !== null) applyRewrite(value, collected, rewritten);
}
