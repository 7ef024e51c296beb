// The shapes the server hands the pipeline and gets back.
import type { Identity } from '../auth/authenticate.js';
import type { GatewayError } from '../errors.js';
import type { RouteEntry } from './route-table.js';
import type { CancelSignal } from '../upstream/cancel-signal.js';

export interface PipelineRequest {
  id: string;
  method: string;
  route: RouteEntry;
  dialect: RouteEntry['dialect'];
  /** Path parameters, `*` holding the rest of a wildcard path. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The request target exactly as received (path and query, still percent-encoded). */
  rawPath?: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  rawBody: Buffer | null;
  /** Set once DLP has counted rawBody's keys against the parsed body: no key repeats anywhere, so encode need not scan again. */
  rawKeysUnique?: boolean;
  identity: Identity;
  /** Set by DLP on a streamed upload: the refusal that cut it, if any (scan-upload.ts). */
  bodyRefusal?: () => GatewayError | null;
  /** Aborted when the client goes away or the gateway shuts down. */
  signal: CancelSignal;
}

export interface PipelineResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON value, raw bytes, or a stream forwarded as it arrives. */
  body: unknown;
}
