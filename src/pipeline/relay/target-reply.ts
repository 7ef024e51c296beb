// What an attempt (stage 6) hands the relay (stage 7): the provider's reply as it came, or an
// answer already in the client's dialect. The types live on the relay's side so the relay reads
// them without importing the attempt, which imports the relay's helpers for a translated stream.
import type { RerankMapper, RerankRequest } from '../../providers/provider-adapter.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import type { PipelineResponse } from '../pipeline-types.js';
import type { ResourceRoute } from '../decode/resource-routes.js';
import type { BatchFileTap } from '../plan/read-batch-file.js';
import type { RequestFields } from '../plan/media-units.js';

export interface ProviderReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array>;
}

/** What the relay needs to know about a resource call. */
export interface ResourceCall {
  route: ResourceRoute;
  /** The provider instance that served the call: the creator of any id in the answer. */
  provider: string;
  /** The rerank request as gw read it and the provider's mapper, to map the answer back. */
  rerank: { request: RerankRequest; mapper: RerankMapper } | null;
  /** GET retrieves what was made before: its answer's usage was recorded when the work ran. */
  method: string;
  /** The id the path names (a batch's, a response's), when the route has one. */
  resourceId: string | null;
  /** The request's fields a media call is priced by (its JSON body, or its form as read on the way up). */
  fields: RequestFields;
  /** A file upload's lines as read on the way up: the models a batch made from it runs (read-batch-file.ts). */
  batchFile?: BatchFileTap;
}

export type TargetReply =
  /** Already in the client's dialect (translated, or counted); `answer`: a translated JSON answer's canonical form. */
  | { kind: 'answered'; status: number; response: PipelineResponse; answer?: CanonicalResponse; discard(): void }
  /** The provider's own reply, relayed as it is. */
  | { kind: 'provider'; status: number; retryAfter?: string; upstream: ProviderReply; hideUsageChunk: boolean; resource: ResourceCall | null; discard(): void };
