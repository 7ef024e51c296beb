// Budgets, between planning and the first attempt: the worst case of the call over every
// planned target (the dearest input and output prices among them) is held against each hard
// budget that applies to the caller's key, team or person, or the call is refused with the
// budget's name and reset time; a soft budget already spent adds a warning (header and audit).
// The record stage settles the hold to the real cost (settleBudget).
import type { Rates } from '../../spend/price-book.js';
import { DEFAULT_OUTPUT_TOKENS, estimateWorstCase } from '../../spend/estimate-worst-case.js';
import { expectedMediaUnits } from '../routes/media-units.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PipelineRequest, PipelineResponse } from '../pipeline-types.js';
import type { TargetAttempt } from './plan-targets.js';
import { priceCall, spendOf } from '../relay/price-call.js';
import type { RequestTrace } from '../request-trace.js';
import { findResourceRoute } from '../routes/resource-routes.js';

const BUDGET_WARNING_HEADER = 'x-gw-budget-warning';

/**
 * Whether any budget could apply: checked without an await, so a gw with no budgets adds no
 * event-loop turn to a call (at 32 connections one more await cost ~10 µs of wall time to headers).
 */
export function budgetsMayApply(request: PipelineRequest, attempts: readonly TargetAttempt[], services: GatewayServices): boolean {
  // Only calls that run a model are priced (files, lists and batches' management calls are not).
  return (services.state.snapshot().budgets ?? []).length > 0 && (attempts.some((attempt) => attempt.target.upstreamModel) || runsUnnamedModel(request, attempts));
}

/**
 * A multipart media call (a transcription, an image edit) names its model only inside the form gw
 * streams through, so its cost cannot be estimated before it runs. It holds one nano-USD: a hard
 * budget already spent refuses it, and the record stage settles the hold to the real cost.
 */
const UNNAMED_MODEL_HOLD_NANOS = 1;

function runsUnnamedModel(request: PipelineRequest, attempts: readonly TargetAttempt[]): boolean {
  return findResourceRoute(request.route.operation)?.usesModel === true && attempts.every((attempt) => !attempt.target.upstreamModel);
}

export async function holdBudget(request: PipelineRequest, attempts: readonly TargetAttempt[], services: GatewayServices, trace: RequestTrace): Promise<string[]> {
  if (!budgetsMayApply(request, attempts, services)) return [];
  const budgets = services.state.snapshot().budgets ?? [];
  const spend = spendOf(services);
  const worstCase = runsUnnamedModel(request, attempts) ? UNNAMED_MODEL_HOLD_NANOS : worstCaseOf(request, attempts, spend.prices.rates.bind(spend.prices));
  const { team, keyId, person } = request.identity;
  const admission = await spend.budgets.admit(budgets, { team, keyId, person }, worstCase, request.id);
  trace.noteBudget(admission);
  for (const warning of admission.warnings) trace.noteWarning(`budget_soft_exceeded: ${warning.slice(0, warning.indexOf(' ('))}`, { once: true });
  return admission.warnings;
}

/** Soft-budget warnings on the answer, whatever its kind (a stream's headers leave first). */
export function withBudgetWarnings(response: PipelineResponse, warnings: readonly string[]): PipelineResponse {
  if (warnings.length === 0) return response;
  return { ...response, headers: { ...response.headers, [BUDGET_WARNING_HEADER]: warnings.join(', ') } };
}

/**
 * Record stage: the hold becomes the real cost. A call the provider refused or never saw settles
 * to 0; one cut before its usage came was given gw's estimate first (settle-cut-call.ts), so it
 * settles to at least what it relayed; usage with no known price keeps the worst case held.
 */
export async function settleBudget(services: GatewayServices, trace: RequestTrace): Promise<void> {
  if (!trace.budget) return;
  const cost = priceCall(services, trace);
  await trace.budget.settle(cost === null ? 0 : cost.nano_usd ?? null);
}

/**
 * The cost of a call that held nothing first, counted against the budgets of whoever made it
 * (charged, never refused: the work already ran): a finished batch's, on the retrieval that
 * first saw it, or a call made while no budget applied.
 */
export async function chargeWithoutHold(services: GatewayServices, subject: { team: string; keyId: string | null; person: string | null }, nanos: number, callId?: string): Promise<void> {
  const budgets = services.state.snapshot().budgets ?? [];
  if (budgets.length > 0) await spendOf(services).budgets.charge(budgets, subject, nanos, callId);
}

function worstCaseOf(request: PipelineRequest, attempts: readonly TargetAttempt[], ratesOf: Parameters<typeof dearestRates>[1]): number | null {
  const rates = dearestRates(attempts, ratesOf);
  return rates === null ? null : estimateWorstCase(rates, request.rawBody?.length ?? 0, request.body, expectedMediaUnits(request.route.operation, request.body));
}

function dearestRates(attempts: readonly TargetAttempt[], ratesOf: (target: { provider: string; kind: string; preset?: string; model: string }) => Rates | null): Rates | null {
  let dearest: Rates = { input: 0, output: 0 };
  for (const { target } of attempts) {
    const rates = ratesOf({ provider: target.provider.name, kind: target.provider.kind, preset: target.provider.preset, model: target.upstreamModel ?? '' });
    if (rates === null) return null;
    dearest = {
      input: Math.max(dearest.input, rates.input), output: Math.max(dearest.output, rates.output),
      perImage: Math.max(dearest.perImage ?? 0, rates.perImage ?? 0), perCharacter: Math.max(dearest.perCharacter ?? 0, rates.perCharacter ?? 0),
      // The largest output ceiling among the targets, one whose ceiling is unknown counting the default's.
      outputCeiling: Math.max(dearest.outputCeiling ?? 0, rates.outputCeiling ?? DEFAULT_OUTPUT_TOKENS),
    };
  }
  return dearest;
}
