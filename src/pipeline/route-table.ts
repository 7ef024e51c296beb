// Every route of the data-plane contract (docs/routes.md), tagged
// with its dialect (which error shape and credential rules apply) and operation
// (what the pipeline does). Auth, audit and metrics hook on these tags, so a route
// is governed from the day it is listed, even before its operation is delivered.
import type { RouteDialect } from '../canonical/dialect.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'HEAD';

export interface RouteEntry {
  method: HttpMethod;
  /** fastify/find-my-way pattern; `*` captures the rest of the path. */
  url: string;
  /** The dialect its errors and credentials follow (src/canonical/dialect.ts); records and metrics call it `family`. */
  dialect: RouteDialect;
  operation: string;
  /** Needs a credential at the door (everything but the operational routes). */
  authenticated: boolean;
  /** Body is JSON (parsed and kept raw); other bodies (multipart, binary) stream. */
  jsonBody: boolean;
}

type RouteSpec = [methods: HttpMethod[], path: string, operation: string, jsonBody?: boolean];

/** OpenAI-format routes, listed once and mounted under /v1, /openai/v1, /openai and /litellm/v1. */
const OPENAI_ROUTES: RouteSpec[] = [
  [['POST'], '/chat/completions', 'chat.completions'],
  [['POST'], '/completions', 'completions'],
  [['POST'], '/embeddings', 'embeddings'],
  [['GET'], '/models', 'models.list'],
  [['GET'], '/models/:model', 'models.retrieve'],
  [['POST'], '/responses', 'responses.create'],
  [['GET'], '/responses', 'responses.websocket'],
  [['POST'], '/responses/input_tokens', 'responses.input_tokens'],
  [['POST'], '/responses/compact', 'responses.compact'],
  [['GET'], '/responses/:response_id', 'responses.retrieve'],
  [['DELETE'], '/responses/:response_id', 'responses.delete'],
  [['POST'], '/responses/:response_id/cancel', 'responses.cancel'],
  [['GET'], '/responses/:response_id/input_items', 'responses.input_items'],
  [['POST'], '/rerank', 'rerank'],
  [['POST'], '/ocr', 'ocr'],
  [['POST'], '/audio/speech', 'audio.speech'],
  [['POST'], '/audio/transcriptions', 'audio.transcriptions', false],
  [['POST'], '/audio/translations', 'audio.translations', false],
  [['POST'], '/images/generations', 'images.generations'],
  [['POST'], '/images/edits', 'images.edits', false],
  [['POST'], '/images/variations', 'images.variations', false],
  // Video creation is a multipart form (an optional input_reference image); remix may be one too.
  [['POST', 'GET'], '/videos', 'videos', false],
  [['POST', 'GET'], '/videos/:video_id', 'videos.item'],
  [['POST', 'GET'], '/videos/:video_id/content', 'videos.content'],
  [['POST', 'GET'], '/videos/:video_id/remix', 'videos.remix', false],
  [['POST', 'GET'], '/batches', 'batches'],
  [['POST', 'GET'], '/batches/:batch_id', 'batches.item'],
  [['POST', 'GET'], '/batches/:batch_id/results', 'batches.results'],
  [['POST', 'GET'], '/batches/:batch_id/cancel', 'batches.cancel'],
  [['POST', 'GET', 'DELETE'], '/files', 'files', false],
  [['POST', 'GET', 'DELETE'], '/files/:file_id', 'files.item', false],
  [['POST', 'GET', 'DELETE'], '/files/:file_id/content', 'files.content', false],
  [['POST', 'GET', 'DELETE'], '/containers', 'containers', false],
  [['POST', 'GET', 'DELETE'], '/containers/*', 'containers.item', false],
  [['GET'], '/realtime', 'realtime', false],
];

/** Anthropic-format routes under /v1 (and /litellm/v1). */
const ANTHROPIC_ROUTES: RouteSpec[] = [
  [['POST'], '/messages', 'messages'],
  [['POST'], '/messages/count_tokens', 'messages.count_tokens'],
  [['POST', 'GET'], '/messages/batches', 'messages.batches'],
  [['GET', 'DELETE'], '/messages/batches/:batch_id', 'messages.batches.item'],
  [['GET'], '/messages/batches/:batch_id/results', 'messages.batches.results'],
  [['POST'], '/messages/batches/:batch_id/cancel', 'messages.batches.cancel'],
];

/** Google GenAI: `models/{model}:{method}`; the model may contain `/` (provider/model), so the rest is one wildcard. */
const GOOGLE_ROUTES: RouteSpec[] = [
  [['GET'], '/v1beta/models', 'genai.models.list'],
  [['POST', 'GET'], '/v1beta/models/*', 'genai.models'],
  [['GET'], '/v1/models', 'genai.models.list'],
  [['POST', 'GET'], '/v1/models/*', 'genai.models'],
  // @ai-sdk/google puts a model that contains `/` straight after the version, without `models/`
  // (`/v1beta/openai/gpt-4.1:streamGenerateContent`): the same call, routed like `models/{model}`.
  [['POST'], '/v1beta/*', 'genai.models'],
  [['POST'], '/v1/*', 'genai.models'],
];

const BEDROCK_ROUTES: RouteSpec[] = [
  [['POST'], '/bedrock/model/:model_id/converse', 'bedrock.converse'],
  [['POST'], '/bedrock/model/:model_id/converse-stream', 'bedrock.converse_stream'],
  [['POST'], '/bedrock/model/:model_id/invoke', 'bedrock.invoke'],
  [['POST'], '/bedrock/model/:model_id/invoke-with-response-stream', 'bedrock.invoke_stream'],
];

/**
 * OTLP/HTTP telemetry (Claude Code's, as the gateway protocol sends it; any OpenTelemetry SDK's):
 * the same door, policy and DLP, served by src/server/telemetry-routes.ts rather than the model
 * corridor (nothing reaches a provider). Anthropic's error shape at the door, as Claude Code reads it.
 */
export const TELEMETRY_ROUTES: readonly RouteEntry[] = (['traces', 'metrics', 'logs'] as const).map((signal) => ({
  method: 'POST', url: `/v1/${signal}`, dialect: 'anthropic', operation: `telemetry.${signal}`, authenticated: true, jsonBody: false,
}));

/**
 * Vertex AI's publisher-model routes, as Claude Code (CLAUDE_CODE_USE_VERTEX=1, base URL ending in /v1) and
 * the GenAI SDK in Vertex mode (v1beta1 by default) call them: `models/{model}:{method}` is one wildcard,
 * as find-my-way cannot end a parameter at a literal `:`.
 */
const VERTEX_ROUTES: RouteEntry[] = ['/v1', '/v1beta1'].flatMap((version) => [
  ...mount(`${version}/projects/:project/locations/:location/publishers`, 'anthropic', [[['POST'], '/anthropic/models/*', 'vertex.anthropic']]),
  ...mount(`${version}/projects/:project/locations/:location/publishers`, 'google', [[['POST'], '/google/models/*', 'vertex.genai']]),
]);

const PASSTHROUGH_PREFIXES: Array<[prefix: string, dialect: RouteDialect]> = [
  ['/openai_passthrough', 'openai'],
  ['/anthropic_passthrough', 'anthropic'],
  ['/genai_passthrough', 'google'],
];

function mount(prefix: string, dialect: RouteDialect, specs: RouteSpec[]): RouteEntry[] {
  return specs.flatMap(([methods, path, operation, jsonBody = true]) =>
    methods.map((method) => ({ method, url: prefix + path, dialect, operation, authenticated: true, jsonBody })));
}

function buildRouteTable(): RouteEntry[] {
  const routes: RouteEntry[] = [
    { method: 'GET', url: '/health', dialect: 'operational', operation: 'health', authenticated: false, jsonBody: false },
    { method: 'GET', url: '/metrics', dialect: 'operational', operation: 'metrics', authenticated: false, jsonBody: false },
    // Claude Code probes its base URL with an unauthenticated HEAD before the first call.
    { method: 'HEAD', url: '/', dialect: 'operational', operation: 'probe', authenticated: false, jsonBody: false },
    // What gw forwards, consumes and adds, as Claude Code's gateway protocol has a gateway state it (render-protocol.ts).
    { method: 'GET', url: '/protocol', dialect: 'operational', operation: 'protocol', authenticated: false, jsonBody: false },
    ...mount('/v1', 'anthropic', ANTHROPIC_ROUTES),
    ...TELEMETRY_ROUTES,
    ...mount('/v1', 'openai', OPENAI_ROUTES),
    ...mount('/openai/v1', 'openai', OPENAI_ROUTES),
    ...mount('/openai', 'openai', OPENAI_ROUTES),
    // The AzureOpenAI client posts to {endpoint}/openai/deployments/{name}/…?api-version=…
    ...mount('/openai/deployments/:deployment', 'openai', [
      [['POST'], '/chat/completions', 'chat.completions'],
      [['POST'], '/completions', 'completions'],
      [['POST'], '/embeddings', 'embeddings'],
    ]),
    ...mount('/genai', 'google', GOOGLE_ROUTES),
    // Gemini CLI and @google/genai append /v1beta to a bare base URL, so serve it unprefixed too.
    ...mount('', 'google', GOOGLE_ROUTES.filter(([, path]) => path.startsWith('/v1beta'))),
    // @google/genai 3 and later default to API version v1: a bare base URL gets POST /v1/models/{model}:{method}.
    // Only POST: GET /v1/models and /v1/models/:model are OpenAI's model list and retrieval.
    ...mount('', 'google', [[['POST'], '/v1/models/*', 'genai.models']]),
    ...mount('/litellm/v1', 'anthropic', ANTHROPIC_ROUTES),
    ...mount('/litellm/v1', 'openai', OPENAI_ROUTES),
    ...mount('/litellm', 'openai', OPENAI_ROUTES),
    ...mount('/litellm', 'google', GOOGLE_ROUTES.filter(([, path]) => path.startsWith('/v1beta'))),
    ...mount('/litellm', 'bedrock', BEDROCK_ROUTES),
    ...VERTEX_ROUTES,
  ];
  for (const [prefix, dialect] of PASSTHROUGH_PREFIXES) {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      routes.push({ method, url: `${prefix}/*`, dialect, operation: 'passthrough', authenticated: true, jsonBody: false });
    }
  }
  return routes;
}

export const ROUTE_TABLE: readonly RouteEntry[] = buildRouteTable();

/** An Anthropic SDK sends anthropic-version on every call; Claude Code's own calls (telemetry too) say claude-cli/ in the user-agent. */
export function isAnthropicCaller(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['anthropic-version'] !== undefined) return true;
  const agent = headers['user-agent'];
  return typeof agent === 'string' && agent.startsWith('claude-cli/');
}

/** For a path no route matched: which dialect's error shape the caller most likely reads. */
export function guessDialect(path: string): RouteDialect {
  const vertex = /^\/v1(beta1)?\/projects\/[^/]+\/locations\/[^/]+\/publishers\/(anthropic|google)\//.exec(path);
  if (vertex) return vertex[2] === 'anthropic' ? 'anthropic' : 'google';
  if (/^\/(litellm\/)?v1\/messages/.test(path) || path.startsWith('/anthropic')) return 'anthropic';
  if (/^\/(genai|litellm\/v1beta|v1beta)\b/.test(path) || /^\/v1\/models\/[^/]+:/.test(path) || path.startsWith('/genai_passthrough')) return 'google';
  if (path.startsWith('/litellm/bedrock')) return 'bedrock';
  return 'openai';
}
