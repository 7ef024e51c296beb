// The call's cost, priced once from what the trace learned (the provider and model that
// answered, the usage it reported) for the record stage, the metrics and the x-gw-cost-usd
// header. A buffered answer gets the header; a stream's headers leave before its usage is
// known, so its cost is only in the audit record and the metrics (README: Spend).
import type { AuditCost, CostSource } from '../../audit/record.js';
import { createSpendServices, type SpendServices } from '../../spend/spend-services.js';
import { NANOS_PER_USD } from '../../spend/price-book.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PipelineResponse } from '../pipeline-types.js';
import type { RequestTrace } from '../request-trace.js';
import { copyWith } from '../../copy-with.js';

const COST_HEADER = 'x-gw-cost-usd';

const fallbacks = new WeakMap<GatewayServices, SpendServices>();

/** The services' spend, or one made from state for services built without it (in-process tests). */
export function spendOf(services: GatewayServices): SpendServices {
  if (services.spend) return services.spend;
  let spend = fallbacks.get(services);
  if (!spend) {
    spend = createSpendServices({ overrides: () => services.state.snapshot().prices ?? [], now: services.now });
    fallbacks.set(services, spend);
  }
  return spend;
}

/**
 * Null when the call reported no usage, reached no provider or named no model (a batch's or a
 * response's retrieval repeats usage already priced when it ran): nothing to price.
 */
export function priceCall(services: GatewayServices, trace: RequestTrace): AuditCost | null {
  if (trace.cost) return trace.cost;
  if (!trace.tokens || !trace.target?.model) return null;
  // A call that touched the prompt cache is priced with what that saved (or a miss cost).
  const priced = spendOf(services).prices.price(trace.target, trace.tokens, trace.image ?? undefined);
  const batched = trace.batch ? atBatchPrice(priced) : priced;
  // gw's estimate of a call whose usage never came in full (settle-cut-call.ts) says so in the record.
  const cost: AuditCost = trace.usageEstimated ? copyWith(batched, { estimated: true as const, source: 'estimate' as const }) : copyWith(batched, { source: sourceOf(trace) });
  trace.noteCost(cost);
  return cost;
}

/**
 * A call a model with no known price answered without reporting usage (a stream without it, no
 * budget to estimate it for): unpriced, so `gw usage` and the unpriced list count it (issue 40).
 */
export function priceWithoutUsage(services: GatewayServices, trace: RequestTrace, status: number): AuditCost | null {
  if (trace.cost || trace.tokens || !trace.target?.model || trace.upstreamSentAt === null || status < 200 || status >= 300) return null;
  if (spendOf(services).prices.price(trace.target, {}).price !== 'unknown') return null;
  const cost: AuditCost = { price: 'unknown', source: 'no_usage' };
  trace.noteCost(cost);
  return cost;
}

function sourceOf(trace: RequestTrace): CostSource {
  return trace.usageAfterHangUp ? 'usage_after_hangup' : 'usage';
}

/**
 * OpenAI and Anthropic both bill batch work at half the interactive price, tokens of every kind
 * (https://platform.openai.com/docs/guides/batch, https://docs.anthropic.com/en/docs/build-with-claude/batch-processing#pricing).
 * The price dataset carries no batch prices, so the discount is applied here. An override
 * (`gw prices set`) is taken as the interactive price and halved too.
 */
function atBatchPrice(cost: AuditCost): AuditCost {
  if (cost.nano_usd === undefined) return cost;
  const saved = cost.cache_saved_nano_usd === undefined ? {} : { cache_saved_nano_usd: Math.round(cost.cache_saved_nano_usd / 2) };
  return { ...cost, nano_usd: Math.round(cost.nano_usd / 2), ...saved, discount: 'batch' };
}

/**
 * A sidecar's buffered call through its hub: the hub priced it (its overrides, its negotiated
 * prices) and says so in x-gw-cost-usd, which is then this call's cost too. A stream's cost
 * (no header) is priced here from the dataset by the model's name.
 */
export function noteHubCost(trace: RequestTrace, headers: Record<string, string | string[] | undefined>): void {
  const header = headers[COST_HEADER];
  if (trace.target?.kind !== 'gateway' || typeof header !== 'string') return;
  if (header === 'unknown') return trace.noteCost({ price: 'unknown', source: 'usage' });
  if (!/^\d+(\.\d{1,9})?$/.test(header)) return;
  trace.noteCost({ nano_usd: Math.round(Number(header) * NANOS_PER_USD), price: 'hub', priced_as: trace.target.model, source: 'usage' });
}

/** A buffered answer's cost as a header: USD as a decimal, or `unknown`. */
export function withCostHeader(response: PipelineResponse, services: GatewayServices, trace: RequestTrace): PipelineResponse {
  if (!Buffer.isBuffer(response.body)) return response;
  const cost = priceCall(services, trace);
  if (!cost) return response;
  return copyWith(response, { headers: copyWith(response.headers, { [COST_HEADER]: formatUsd(cost) }) });
}

/** nano-USD → `0.00325` (nine decimals at most, trailing zeros dropped); unknown stays `unknown`. */
function formatUsd(cost: AuditCost): string {
  if (cost.nano_usd === undefined) return 'unknown';
  return (cost.nano_usd / NANOS_PER_USD).toFixed(9).replace(/\.?0+$/, '') || '0';
}
