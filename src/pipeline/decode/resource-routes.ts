// The routes forwarded by src/pipeline/routes/forward-resource.ts: provider-side resources
// (responses, files, batches, containers, videos, message batches) and the media and
// retrieval routes (images, audio, rerank, OCR). Each entry says where the id of a
// follow-up call is, which providers serve it when nothing else decides, and how its
// answer comes back.
import type { ProviderConfig, ProviderKind, UpstreamCall } from '../../providers/provider-adapter.js';
import type { ResourceOperation } from '../../canonical/dialect.js';
import { PROVIDER_KINDS, adapterFor } from '../../providers/registry.js';
import type { PipelineRequest } from '../pipeline-types.js';

export type ResourceRouteOperation = ResourceOperation | 'responses.create';

export interface ResourceRoute {
  operation: ResourceRouteOperation;
  /** The path parameter holding the id whose creator is remembered (`*`: its first segment). */
  idParam?: string;
  /** Provider kinds tried in order when neither an id, a model nor x-gw-provider decides. */
  kinds: ProviderKind[];
  /** The answer may be large or binary (file content, audio, results): always streamed through. */
  download?: boolean;
  /** The JSON body is gw's rerank shape, mapped to the provider's. */
  rerank?: boolean;
  /** The provider runs a model (named in the body, or its default): allow_models applies even when none is named. */
  usesModel?: boolean;
}

const OPENAI: ProviderKind[] = ['openai', 'openai-compatible', 'mistral'];

function routes(list: ResourceRoute[]): Record<string, ResourceRoute> {
  return Object.fromEntries(list.map((route) => [route.operation, route]));
}

const RESOURCE_ROUTES: Record<string, ResourceRoute> = routes([
  { operation: 'responses.create', kinds: OPENAI, usesModel: true },
  { operation: 'responses.retrieve', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.delete', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.cancel', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.input_items', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.input_tokens', kinds: OPENAI, usesModel: true },
  { operation: 'responses.compact', kinds: OPENAI, usesModel: true },
  { operation: 'files', kinds: OPENAI },
  { operation: 'files.item', idParam: 'file_id', kinds: OPENAI },
  { operation: 'files.content', idParam: 'file_id', kinds: OPENAI, download: true },
  { operation: 'batches', kinds: OPENAI },
  { operation: 'batches.item', idParam: 'batch_id', kinds: OPENAI },
  { operation: 'batches.results', idParam: 'batch_id', kinds: OPENAI, download: true },
  { operation: 'batches.cancel', idParam: 'batch_id', kinds: OPENAI },
  { operation: 'containers', kinds: ['openai'] },
  { operation: 'containers.item', idParam: '*', kinds: ['openai'] },
  { operation: 'videos', kinds: ['openai'], usesModel: true },
  { operation: 'videos.item', idParam: 'video_id', kinds: ['openai'] },
  { operation: 'videos.content', idParam: 'video_id', kinds: ['openai'], download: true },
  { operation: 'videos.remix', idParam: 'video_id', kinds: ['openai'], usesModel: true },
  { operation: 'images.generations', kinds: OPENAI, usesModel: true },
  { operation: 'images.edits', kinds: OPENAI, usesModel: true },
  { operation: 'images.variations', kinds: OPENAI, usesModel: true },
  { operation: 'audio.speech', kinds: OPENAI, download: true, usesModel: true },
  { operation: 'audio.transcriptions', kinds: OPENAI, usesModel: true },
  { operation: 'audio.translations', kinds: OPENAI, usesModel: true },
  { operation: 'rerank', kinds: ['cohere', 'jina', 'voyage'], rerank: true, usesModel: true },
  { operation: 'ocr', kinds: ['mistral'], usesModel: true },
  { operation: 'messages.batches', kinds: ['anthropic'] },
  { operation: 'messages.batches.item', idParam: 'batch_id', kinds: ['anthropic'] },
  { operation: 'messages.batches.results', idParam: 'batch_id', kinds: ['anthropic'], download: true },
  { operation: 'messages.batches.cancel', idParam: 'batch_id', kinds: ['anthropic'] },
]);

/** Whether a provider's adapter has a URL for the operation. */
export function offers(provider: ProviderConfig, operation: UpstreamCall['operation']): boolean {
  const probe: UpstreamCall = { operation, model: null, stream: false, resourcePath: '/probe', clientPath: '/probe' };
  return adapterFor(provider.kind).urlFor(provider, probe) !== null;
}

/** The provider kinds that offer a route's operation, for messages that say where to find it. */
export function kindsOffering(route: ResourceRoute): string[] {
  return PROVIDER_KINDS.filter((kind) => kind !== 'gateway'
    && offers({ name: kind, kind, baseUrl: 'http://provider.invalid', apiKey: null, source: 'built-in' }, route.operation));
}

export function findResourceRoute(operation: string): ResourceRoute | null {
  return Object.hasOwn(RESOURCE_ROUTES, operation) ? RESOURCE_ROUTES[operation]! : null;
}

/** The id a follow-up call names (`file-abc` in /v1/files/file-abc/content), if any. */
export function resourceIdOf(request: PipelineRequest, route: ResourceRoute): string | null {
  if (route.idParam === undefined) return null;
  const value = request.params[route.idParam] ?? '';
  const id = route.idParam === '*' ? value.split('/')[0] ?? '' : value;
  return id === '' ? null : id;
}

/**
 * The client's path under the API root, ids re-encoded: `/openai/v1/files/f 1` → `/files/f%201`.
 * Mount prefixes (/litellm, /openai, /v1) are the route table's; Anthropic paths keep
 * `/messages/batches`, and its adapter adds `/v1`.
 */
export function resourcePathOf(request: PipelineRequest): string {
  const path = request.route.url
    .replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(request.params[name] ?? ''))
    .replace('*', (request.params['*'] ?? '').split('/').map(encodeURIComponent).join('/'));
  return path.replace(/^\/litellm/, '').replace(/^\/openai/, '').replace(/^\/v1(?=\/)/, '');
}

/** The path and query as the client called them, for a gateway provider (another gw serves the same paths). */
export function clientPathOf(request: PipelineRequest): string {
  const query = request.query.toString();
  const path = request.route.url
    .replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(request.params[name] ?? ''))
    .replace('*', (request.params['*'] ?? '').split('/').map(encodeURIComponent).join('/'));
  return `${path}${query ? `?${query}` : ''}`;
}
