// One call's path through gw, read top to bottom: the corridor every route takes to
// a provider (inference, Responses and its CRUD, resources and media, passthrough,
// count_tokens, model lists; realtime sessions take the same stages in
// src/server/realtime-proxy.ts). The stages, numbered as in the README:
//   1. identify      credential → team, key, person; the body budget (identify-caller.ts, admit-body.ts;
//                    the fastify side, the door: src/server/door.ts)
//   2. local guard   Host/Origin checks when gw serves without a credential (local-guard.ts)
//   3. decode        what the client asked for, in its dialect (read-inbound-call.ts)
//   4. govern        direct key, policy, limits, DLP over whatever leaves (govern-request.ts)
//                    (a passthrough's or a batch's models, once planning says whose: govern-call-models.ts)
//   5. plan targets  routing rules, aliases, resource-id memory, policy's provider filter (plan-targets.ts);
//                    then budgets hold the call's worst case over those targets (hold-budget.ts)
//   6. attempt       each target in turn: encode, then send-to-provider.ts (attempt-targets.ts, try-target.ts)
//   7. relay         back to the client, output DLP on every dialect and path (relay-reply.ts);
//                    a buffered answer carries its cost (price-call.ts); post-call guardrails (guard-reply.ts)
//   8. record        audit record with the cost, log line, metrics, budgets settled (record-call.ts)
import type { GatewayServices } from './gateway-services.js';
import { attemptTargets } from './attempt/attempt-targets.js';
import { governCallModels, runsModelsToGovern } from './plan/govern-call-models.js';
import { governRequest } from './govern/govern-request.js';
import { budgetsMayApply, holdBudget, withBudgetWarnings } from './plan/hold-budget.js';
import { listModels } from './attempt/list-models.js';
import type { PipelineRequest, PipelineResponse } from './pipeline-types.js';
import { planCatalogTargets, planTargets, resourceIdsNamed } from './plan/plan-targets.js';
import { withCostHeader } from './plan/price-call.js';
import { readInboundCall } from './decode/read-inbound-call.js';
import { relayReply } from './relay/relay-reply.js';
import { guardReply } from './relay/guard-reply.js';
import { withDrainableSignal } from './drain-cancel.js';
import type { RequestTrace } from './request-trace.js';
import { refusePlainGet } from './realtime/responses-websocket.js';
import { scanRelayedError } from './relay/scan-provider-reply.js';
import { tryTarget } from './attempt/try-target.js';
import type { AttemptCall } from './attempt/attempt-call.js';
import type { TargetReply } from './relay/target-reply.js';

export type { PipelineRequest, PipelineResponse } from './pipeline-types.js';

export async function handleRequest(request: PipelineRequest, services: GatewayServices, trace: RequestTrace): Promise<PipelineResponse> {
  // A plain GET of the Responses WebSocket route (its upgrades are served in src/server/responses-websocket-turns.ts).
  if (request.route.operation === 'responses.websocket') throw refusePlainGet();

  // 3. decode
  const call = readInboundCall(request);
  trace.noteModel(call.model);

  // 4. govern: may throw a refusal in the caller's shape; redacts the body in place.
  const governed = await governRequest(request, call, services, trace);

  // 5–7 for the merged model list: every provider policy allows.
  if (call.operation === 'models.list' || call.operation === 'genai.models.list') {
    return listModels(call.dialect, planCatalogTargets(services, governed), services, request.signal, trace, governed.policies);
  }

  // 5. plan targets (a shared resource-id store first fetches ids another instance remembered)
  if (services.resourceIds?.load) await services.resourceIds.load(resourceIdsNamed(call, request));
  const attempts = planTargets(call, request, services, governed);
  // …the model lists for what a passthrough names in its own words, or a batch's lines run (4, continued).
  if (runsModelsToGovern(call, request)) await governCallModels(request, call, attempts, governed, services, trace);
  // …and hard budgets hold its worst case (or refuse it); soft ones may warn.
  const budgetWarnings = budgetsMayApply(request, attempts, services) ? await holdBudget(request, attempts, services, trace) : [];

  // 6. attempt: in turn (fallbacks, retries, per-target time-outs) until one answers, all
  // before the first byte reaches the client.
  let reply: TargetReply;
  // A stream's provider is not stopped by a hang-up after its answer is complete: its usage is read first.
  const upstreamRequest = withDrainableSignal(request, call.stream, trace);
  const attempt: AttemptCall = { request: upstreamRequest, call, services, trace, governed };
  try {
    reply = await attemptTargets(attempts, upstreamRequest, trace, (target, signal) => tryTarget(attempt, target, signal));
  } catch (error) {
    // A provider's refusal re-encoded for the client carries the provider's text: output DLP reads it.
    throw scanRelayedError(error, governed, trace);
  }

  // 7. relay (8, record, runs when the response closes), then the post-call guardrails over what the client would get.
  const relayed = await guardReply(await relayReply(reply, call, governed, services, request.signal, trace), call.dialect,
    { request, services, trace, model: call.model, operation: call.operation });
  return withBudgetWarnings(withCostHeader(relayed, services, trace), budgetWarnings);
}
