// Stage 5, plan targets: which provider(s) a call may go to, in the order to try
// them. One plan for every route; its inputs, first that decides wins:
//   1. the resource-id memory: a follow-up call (a file's content, a batch's results)
//      goes to the provider that created the id, or that holds a batch's input file;
//   2. a passthrough prefix names its provider kind;
//   3. the model: a routing rule's weighted targets (session affinity, retries,
//      time-outs), else provider/model, an alias, a well-known prefix, a gateway;
//   4. `x-gw-provider: NAME`, for a call whose body names no model (a multipart upload);
//      with a model it may only agree with the model's provider;
//   5. a resource route with nothing else: the first configured provider of its kinds.
// Then policy filters the providers (allow/deny_providers, shadow mode only warns),
// and a caller's own key (x-gw-direct-key) replaces the provider key.
import type { DlpSettings } from '../../dlp/dlp-config.js';
import { GatewayError } from '../../errors.js';
import { refuseProvider } from '../../policy/evaluate-policy.js';
import type { ProviderConfig, ProviderKind } from '../../providers/provider-adapter.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { planAttempts, type PlannedAttempt } from '../../routing/plan-attempts.js';
import type { RouteRule } from '../../routing/route-rule.js';
import type { GatewayServices, ProviderSet } from '../gateway-services.js';
import type { Governed } from '../govern/govern-request.js';
import type { PipelineRequest } from '../pipeline-types.js';
import { refuseTargetModel } from '../govern/qualify-model.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import { readSession } from '../decode/read-session.js';
import { kindsOffering, offers, resourceIdOf, type ResourceRoute } from '../decode/resource-routes.js';

export interface Target {
  provider: ProviderConfig;
  /** The model as the provider knows it; null for passthrough and model-less resource calls. */
  upstreamModel: string | null;
}

export interface TargetAttempt {
  target: Target;
  /** The routing rule this attempt came from: the call is recorded under the target's model, the rule beside it. */
  rule?: string;
  retry: number;
  timeoutMs?: number;
}

const PROVIDER_HEADER = 'x-gw-provider';

const PASSTHROUGH_KINDS: Readonly<Record<string, ProviderKind>> = { openai: 'openai', anthropic: 'anthropic', google: 'gemini' };

export function planTargets(call: InboundCall, request: PipelineRequest, services: GatewayServices, governed: Governed): TargetAttempt[] {
  const set = services.providers();
  let attempts = candidates(call, request, services, set, governed.dlp);
  if (call.resource) attempts = attempts.map((attempt) => ({ ...attempt, target: offering(attempt.target, call, set.providers) }));
  attempts = filterByPolicy(attempts, governed, call.operation === 'passthrough' ? null : call.model);
  const directKey = governed.directKey;
  if (directKey !== null) {
    attempts = attempts.map((attempt) => ({ ...attempt, target: { ...attempt.target, provider: { ...attempt.target.provider, apiKey: directKey } } }));
  }
  return attempts;
}

/** Every provider policy lets this caller use, for the merged model list. */
export function planCatalogTargets(services: GatewayServices, governed: Governed): Target[] {
  return services.providers().providers
    .filter((provider) => { const refusal = refuseProvider(governed.policies, provider.name); return refusal === null || refusal.shadow; })
    .map((provider) => ({ provider, upstreamModel: null }));
}

function candidates(call: InboundCall, request: PipelineRequest, services: GatewayServices, set: ProviderSet, dlp: DlpSettings): TargetAttempt[] {
  const byName = (name: string | undefined) => name === undefined ? undefined : set.providers.find((provider) => provider.name === name);
  if (call.resource) {
    const id = resourceIdOf(request, call.resource);
    const creator = byName(id === null ? undefined : services.resourceIds?.providerOf(id))
      ?? byName(bodyString(request.body, 'input_file_id', (fileId) => services.resourceIds?.providerOf(fileId)));
    if (creator) return [once({ provider: creator, upstreamModel: null })];
  }
  if (call.operation === 'passthrough') return [once(passthroughTarget(request.dialect, set.providers))];
  const named = headerValue(request.headers[PROVIDER_HEADER]);
  const namedProvider = named === undefined ? undefined : byName(named);
  if (named !== undefined && namedProvider === undefined) {
    throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', { message: `${PROVIDER_HEADER} names "${named}", which is not a configured provider (configured: ${set.providers.map((provider) => provider.name).join(', ')}).` });
  }
  if (call.model !== null && call.model !== '') {
    const rule = (services.state.snapshot().routes ?? []).find((candidate: RouteRule) => candidate.name === call.model);
    const planned = rule ? ruleTargets(rule, request, set, dlp) : [once(modelTarget(call, set))];
    if (namedProvider) requireAgreement(namedProvider, planned, call.model);
    return stayWithCreator(planned, byName(bodyString(request.body, 'previous_response_id', (id) => services.resourceIds?.providerOf(id))));
  }
  if (namedProvider) return [once({ provider: namedProvider, upstreamModel: null })];
  if (call.resource) return [once(fallbackTarget(call.resource, set.providers))];
  throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The request needs a "model" string.', param: 'model' });
}

/**
 * A Responses call continuing a stored response (previous_response_id) goes to the provider that
 * created it, whatever the routing rule would pick: no other provider or account can resolve the id.
 */
function stayWithCreator(planned: TargetAttempt[], creator: ProviderConfig | undefined): TargetAttempt[] {
  if (creator === undefined) return planned;
  const same = planned.filter((attempt) => attempt.target.provider.name === creator.name);
  if (same.length > 0) return same;
  return [once({ provider: creator, upstreamModel: planned[0]?.target.upstreamModel ?? null })];
}

function once(target: Target): TargetAttempt {
  return { target, retry: 0 };
}

/** A session keeps to one target of a weighted route: read as the record reads it, under the caller's DLP rules. */
function ruleTargets(rule: RouteRule, request: PipelineRequest, set: ProviderSet, dlp: DlpSettings): TargetAttempt[] {
  const planned = planAttempts(rule, { random: Math.random, sessionId: readSession(request.headers, request.body, dlp).session });
  const attempts = planned.flatMap((attempt) => toTargetAttempt(attempt, set)).map((attempt) => ({ ...attempt, rule: rule.name }));
  if (attempts.length === 0) throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', { message: `Route "${rule.name}" has no usable target (see gw routes list).` });
  return attempts;
}

function toTargetAttempt(attempt: PlannedAttempt, set: ProviderSet): TargetAttempt[] {
  const { target } = attempt;
  const keys = set.routeKeys ?? {};
  if (target.key !== undefined && keys[target.key] === undefined) return [];
  const route = resolveModel(target.model, set.providers, set.aliases);
  const provider = target.key === undefined ? route.provider : { ...route.provider, apiKey: keys[target.key]! };
  return [{ target: { provider, upstreamModel: route.upstreamModel }, retry: attempt.retry, ...(target.timeout_ms ? { timeoutMs: target.timeout_ms } : {}) }];
}

function modelTarget(call: InboundCall, set: ProviderSet): Target {
  // The AzureOpenAI client names a deployment: an Azure provider, when there is one, serves it.
  const azure = call.deployment && !call.model?.includes('/') ? set.providers.find((candidate) => candidate.kind === 'azure') : undefined;
  if (azure) return { provider: azure, upstreamModel: call.model };
  const route = resolveModel(call.model ?? '', set.providers, set.aliases);
  return { provider: route.provider, upstreamModel: route.upstreamModel };
}

/** A header may pick among providers only where the model does not already decide. */
function requireAgreement(named: ProviderConfig, planned: readonly TargetAttempt[], model: string): void {
  if (planned.every((attempt) => attempt.target.provider.name === named.name)) return;
  throw new GatewayError('GW_ERR_REQUEST_INVALID', {
    message: `${PROVIDER_HEADER} names "${named.name}", but the model "${model}" is served by ${planned.map((attempt) => attempt.target.provider.name).join(', ')}; ` +
      `name the model as ${named.name}/<model> instead, or drop the header.`,
    param: PROVIDER_HEADER,
  });
}

function passthroughTarget(dialect: string, providers: readonly ProviderConfig[]): Target {
  const kind = PASSTHROUGH_KINDS[dialect] ?? 'openai';
  const provider = providers.find((candidate) => candidate.name === kind)
    ?? providers.find((candidate) => candidate.kind === kind)
    ?? providers.find((candidate) => candidate.kind === 'gateway');
  if (!provider) {
    throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', {
      message: `The ${dialect} passthrough needs a configured ${kind} provider (set its API key in the environment or run gw providers add ${kind} --kind ${kind}).`,
    });
  }
  return { provider, upstreamModel: null };
}

function fallbackTarget(route: ResourceRoute, providers: readonly ProviderConfig[]): Target {
  const provider = route.kinds.map((kind) => providers.find((candidate) => candidate.kind === kind)).find(Boolean)
    ?? providers.find((candidate) => candidate.kind === 'gateway');
  if (!provider) {
    throw new GatewayError('GW_ERR_PROVIDER_NOT_CONFIGURED', {
      message: `No configured provider offers ${route.operation}; providers of kind ${kindsOffering(route).join(', ')} do (set one's API key, or gw providers add).`,
    });
  }
  return { provider, upstreamModel: null };
}

/** A resource route's provider must offer it, unless the call can be translated (Responses on a Claude model). */
function offering(target: Target, call: InboundCall, all: readonly ProviderConfig[]): Target {
  if (call.translatable || offers(target.provider, call.resource!.operation)) return target;
  const route = call.resource!;
  const configured = all.filter((candidate) => offers(candidate, route.operation)).map((candidate) => candidate.name);
  const elsewhere = configured.length > 0 ? `configured providers that do: ${configured.join(', ')}` : 'no configured provider does';
  throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', {
    message: `Provider ${target.provider.name} (${target.provider.kind}) does not offer ${route.operation}; ${elsewhere} ` +
      `(provider kinds that do: ${kindsOffering(route).join(', ')}).`,
  });
}

function filterByPolicy(attempts: TargetAttempt[], governed: Governed, clientModel: string | null): TargetAttempt[] {
  if (governed.policies.length === 0) return attempts;
  // A provider the policies refuse, or a model a rule or alias leads to that they deny, is skipped.
  const refusalOf = (target: Target) => refuseProvider(governed.policies, target.provider.name) ?? refuseTargetModel(governed.policies, target, clientModel);
  const kept = attempts.filter((attempt) => {
    const refusal = refusalOf(attempt.target);
    return refusal === null || refusal.shadow;
  });
  if (kept.length > 0) return kept;
  const refusal = refusalOf(attempts[0]!.target);
  throw new GatewayError('GW_ERR_POLICY_DENIED', { message: `Refused by ${refusal?.reason ?? 'policy'}.` });
}


/** The resource ids planning will ask about, so a shared store can fetch them first (see load). */
export function resourceIdsNamed(call: InboundCall, request: PipelineRequest): string[] {
  const ids: string[] = [];
  const id = call.resource ? resourceIdOf(request, call.resource) : null;
  if (id !== null) ids.push(id);
  for (const name of ['input_file_id', 'previous_response_id']) bodyString(request.body, name, (value) => void ids.push(value));
  return ids;
}

function bodyString(body: unknown, name: string, then: (value: string) => string | undefined): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? then(value) : undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}
