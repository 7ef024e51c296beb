// One request's path through gw, read top to bottom. The server has already
// matched the route, authenticated the caller at the door and parsed the body;
// everything after that happens here.
import type { Identity } from '../auth/authenticate.js';
import { GatewayError } from '../errors.js';
import type { GatewayServices } from './gateway-services.js';
import type { RouteEntry } from './route-table.js';

export interface PipelineRequest {
  id: string;
  method: string;
  route: RouteEntry;
  family: RouteEntry['family'];
  /** Path parameters, `*` holding the rest of a wildcard path. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  rawBody: Buffer | null;
  identity: Identity;
  /** Aborted when the client goes away or the gateway shuts down. */
  signal: AbortSignal;
}

export interface PipelineResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON value, raw bytes, or a stream forwarded as it arrives. */
  body: unknown;
}

/** What the pipeline learned that the audit record and metrics need. */
export interface PipelineFacts {
  model: string | null;
  provider: string | null;
}

export async function handleRequest(request: PipelineRequest, _services: GatewayServices, _facts: PipelineFacts): Promise<PipelineResponse> {
  throw new GatewayError('GW_ERR_OPERATION_NOT_IMPLEMENTED', {
    message: `The operation "${request.route.operation}" (${request.method} ${request.route.url}) is not implemented by this gateway yet.`,
  });
}
