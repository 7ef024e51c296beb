// The shapes the server hands the pipeline and gets back.
import type { AuditTokens, AuditValue } from '../audit/record.js';
import type { Identity } from '../auth/authenticate.js';
import type { RouteEntry } from './route-table.js';
import type { CancelSignal } from '../upstream/cancel-signal.js';

export interface PipelineRequest {
  id: string;
  method: string;
  route: RouteEntry;
  family: RouteEntry['family'];
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
  /** Aborted when the client goes away or the gateway shuts down. */
  signal: CancelSignal;
}

export interface PipelineResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON value, raw bytes, or a stream forwarded as it arrives. */
  body: unknown;
}

/** What the pipeline learned that the audit record, the log and the metrics need. */
export interface PipelineFacts {
  model: string | null;
  provider: string | null;
  tokens: AuditTokens | null;
  outcome: string[];
  bytesOut: number | null;
  /** Time spent waiting on the provider, so gw's own overhead can be told apart. */
  upstreamNanos: bigint;
  /** Translation warnings (what one side could not express), by code, for the audit record. */
  warnings: string[];
  /** DLP rule id → matches in this request (never the matched text). */
  dlp?: Record<string, number>;
  /** Extra audit payload: routing attempts, a direct key's fingerprint. */
  data: Record<string, AuditValue>;
  /** The client has been handed its stream's final event: a hang-up after that is not a disconnect. */
  finished: boolean;
  /** Resolves when a relayed stream has finished and its bytes and usage are known. */
  settled: Promise<void> | null;
}
