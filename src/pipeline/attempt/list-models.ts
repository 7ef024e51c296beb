// Stages 6 and 7 for GET /v1/models (and GenAI's models list): the catalog of every
// provider the plan allows (policy's allow/deny_providers), merged, each id prefixed
// with its provider name so it routes back. Catalogs are cached for a few minutes; a
// provider that fails to answer is left out (and logged), not allowed to fail the list.
import { adapterFor } from '../../providers/registry.js';
import type { UpstreamOperation, WireDialect } from '../../canonical/dialect.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PipelineResponse } from '../pipeline-types.js';
import type { Target } from '../plan/plan-targets.js';
import { readJsonBody } from '../relay/read-json-reply.js';
import type { RequestTrace } from '../request-trace.js';
import { sendToProvider } from './send-to-provider.js';
import { toAbortSignal, type CancelSignal } from '../../upstream/cancel-signal.js';
import { evaluateModelAccess } from '../../policy/evaluate-policy.js';
import type { PolicyRecord } from '../../policy/policy-record.js';

const CATALOG_TTL_MS = 5 * 60_000;
const CATALOG_TIMEOUT_MS = 10_000;

interface CachedCatalog { ids: string[]; until: number }
const catalogCache = new WeakMap<GatewayServices, Map<string, CachedCatalog>>();

const LIST_OPERATION: Record<string, UpstreamOperation> = {
  openai: 'models.list', azure: 'models.list', 'openai-compatible': 'models.list', gateway: 'models.list',
  anthropic: 'models.list.anthropic', gemini: 'genai.models.list',
};

function idsOf(json: unknown): string[] {
  const record = json as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown }> } | null;
  const fromData = (record?.data ?? []).map((model) => model.id);
  const fromModels = (record?.models ?? []).map((model) => typeof model.name === 'string' ? model.name.replace(/^models\//, '') : undefined);
  return [...fromData, ...fromModels].filter((id): id is string => typeof id === 'string');
}

async function fetchCatalog(target: Target, services: GatewayServices, signal: CancelSignal, trace: RequestTrace): Promise<string[]> {
  const { provider } = target;
  const call = { operation: LIST_OPERATION[provider.kind] ?? 'models.list', model: null, stream: false, clientPath: '/v1/models' };
  if (adapterFor(provider.kind).urlFor(provider, call) === null) return [];
  const bounded = AbortSignal.any([toAbortSignal(signal), AbortSignal.timeout(CATALOG_TIMEOUT_MS)]);
  const response = await sendToProvider(target, { call, method: 'GET', clientHeaders: {}, body: null }, services, bounded, trace);
  const { bytes, answer } = await readJsonBody(response.body, 'openai');
  if (response.status >= 400) throw new Error(`HTTP ${response.status}`);
  // Not JSON: parsed again only to throw the parser's error, as before.
  return idsOf(answer ?? JSON.parse(bytes.toString('utf8')));
}

async function catalogOf(target: Target, services: GatewayServices, signal: CancelSignal, trace: RequestTrace): Promise<string[]> {
  const { provider } = target;
  let cache = catalogCache.get(services);
  if (!cache) catalogCache.set(services, cache = new Map<string, CachedCatalog>());
  const cached = cache.get(provider.name);
  const now = services.now().getTime();
  if (cached && cached.until > now) return cached.ids;
  try {
    const ids = await fetchCatalog(target, services, signal, trace);
    // Another gw, and the mock, already name their models the way gw routes them.
    const named = adapterFor(provider.kind).catalogIdsRoute ? ids : ids.map((id) => `${provider.name}/${id}`);
    cache.set(provider.name, { ids: named, until: now + CATALOG_TTL_MS });
    return named;
  } catch (error) {
    services.logger.warn({ provider: provider.name, err: error instanceof Error ? error.message : String(error) }, 'model catalog unavailable');
    return [];
  }
}

export async function listModels(dialect: WireDialect, targets: readonly Target[], services: GatewayServices, signal: CancelSignal, trace: RequestTrace, policies: readonly PolicyRecord[] = []): Promise<PipelineResponse> {
  const catalogs = await Promise.all(targets.map((target) => catalogOf(target, services, signal, trace)));
  const ids = [...new Set(catalogs.flat())];
  const listed = dialect === 'anthropic' ? claudeIds(ids, policies) : ids;
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encodeModelList(dialect, listed) };
}

/**
 * An Anthropic caller (Claude Code's model discovery) reads bare `claude-{family}-…` ids, as
 * Anthropic's own list and the reference gateway give them: its model-family logic keys on that
 * shape. gw routes a bare claude-* id to its Anthropic provider, so the bare id works for
 * messages and count_tokens. The mock's models are no Claude, and a model the caller's policy
 * refuses is not offered.
 */
function claudeIds(ids: readonly string[], policies: readonly PolicyRecord[]): string[] {
  const bare = new Set<string>();
  for (const id of ids) {
    const slash = id.indexOf('/');
    const name = id.slice(slash + 1);
    if (slash < 0 || id.startsWith('mock/') || !name.startsWith('claude-')) continue;
    const refused = evaluateModelAccess(policies, { model: id, modelAliases: [name] }).some((refusal) => !refusal.shadow);
    if (!refused) bare.add(name);
  }
  return [...bare];
}

function encodeModelList(dialect: WireDialect, ids: string[]): unknown {
  if (dialect === 'anthropic') {
    // https://docs.anthropic.com/en/api/models-list
    const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' }));
    return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
  }
  if (dialect === 'google') {
    // https://ai.google.dev/api/models#method:-models.list
    return { models: ids.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'countTokens'] })) };
  }
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: id.split('/')[0] ?? 'gw' })) };
}
