// The routes forwarded by src/pipeline/forward-resource.ts: provider-side resources
// (responses, files, batches, containers, videos, message batches) and the media and
// retrieval routes (images, audio, rerank, OCR). Each entry says where the id of a
// follow-up call is, which providers serve it when nothing else decides, and how its
// answer comes back.
import type { ProviderKind } from '../providers/provider-adapter.js';
import type { ResourceOperation } from '../canonical/dialect.js';
import type { PipelineRequest } from './pipeline-types.js';

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
}

const OPENAI: ProviderKind[] = ['openai', 'openai-compatible', 'mistral'];

function routes(list: ResourceRoute[]): Record<string, ResourceRoute> {
  return Object.fromEntries(list.map((route) => [route.operation, route]));
}

const RESOURCE_ROUTES: Record<string, ResourceRoute> = routes([
  { operation: 'responses.create', kinds: OPENAI },
  { operation: 'responses.retrieve', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.delete', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.cancel', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.input_items', idParam: 'response_id', kinds: OPENAI },
  { operation: 'responses.input_tokens', kinds: OPENAI },
  { operation: 'responses.compact', kinds: OPENAI },
  { operation: 'files', kinds: OPENAI },
  { operation: 'files.item', idParam: 'file_id', kinds: OPENAI },
  { operation: 'files.content', idParam: 'file_id', kinds: OPENAI, download: true },
  { operation: 'batches', kinds: OPENAI },
  { operation: 'batches.item', idParam: 'batch_id', kinds: OPENAI },
  { operation: 'batches.results', idParam: 'batch_id', kinds: OPENAI, download: true },
  { operation: 'batches.cancel', idParam: 'batch_id', kinds: OPENAI },
  { operation: 'containers', kinds: ['openai'] },
  { operation: 'containers.item', idParam: '*', kinds: ['openai'] },
  { operation: 'videos', kinds: ['openai'] },
  { operation: 'videos.item', idParam: 'video_id', kinds: ['openai'] },
  { operation: 'videos.content', idParam: 'video_id', kinds: ['openai'], download: true },
  { operation: 'videos.remix', idParam: 'video_id', kinds: ['openai'] },
  { operation: 'images.generations', kinds: OPENAI },
  { operation: 'images.edits', kinds: OPENAI },
  { operation: 'images.variations', kinds: OPENAI },
  { operation: 'audio.speech', kinds: OPENAI, download: true },
  { operation: 'audio.transcriptions', kinds: OPENAI },
  { operation: 'rerank', kinds: ['cohere', 'jina', 'voyage'], rerank: true },
  { operation: 'ocr', kinds: ['mistral'] },
  { operation: 'messages.batches', kinds: ['anthropic'] },
  { operation: 'messages.batches.item', idParam: 'batch_id', kinds: ['anthropic'] },
  { operation: 'messages.batches.results', idParam: 'batch_id', kinds: ['anthropic'], download: true },
  { operation: 'messages.batches.cancel', idParam: 'batch_id', kinds: ['anthropic'] },
]);

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
