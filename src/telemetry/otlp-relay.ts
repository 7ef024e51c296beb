// Relays the OTLP batches clients post to gw (Claude Code's telemetry, src/server/telemetry-routes.ts)
// to the collector gw exports its own spans to: OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/<signal>) or the
// signal's own OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT, with OTEL_EXPORTER_OTLP_HEADERS. Off the
// request path: a batch is queued and the client answered at once; one sender empties the queue.
// The queue is bounded (batches and bytes): a collector that is slow or down fills it and further
// batches are dropped and counted, so it never holds memory, a socket or a model call.
// https://opentelemetry.io/docs/specs/otel/protocol/exporter/
import type { OtlpSignal } from './otlp-schema.js';

export interface OtlpBatch {
  signal: OtlpSignal;
  contentType: string;
  body: Uint8Array;
}

/** Posts one batch; resolves with the collector's status, rejects when it cannot be reached. */
export type PostBatch = (url: string, headers: Record<string, string>, body: Uint8Array) => Promise<number>;

export type RelayOutcome = 'relayed' | 'rejected' | 'unreachable' | 'queue_full';

export interface OtlpRelay {
  /** False (and counted as queue_full) when the queue has no room. */
  enqueue(batch: OtlpBatch): boolean;
  /** Waits for the queue to empty (at shutdown), at most `ms`. */
  drain(ms: number): Promise<void>;
}

export interface RelayLimits {
  maxBatches: number;
  maxBytes: number;
}

const DEFAULT_LIMITS: RelayLimits = { maxBatches: 256, maxBytes: 32 * 1024 * 1024 };

const SIGNAL_VARIABLE: Record<OtlpSignal, string> = {
  traces: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', metrics: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', logs: 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT',
};

/** Where each signal goes, as the OTLP exporter specification reads the variables; null: no collector configured. */
export function readRelayTargets(env: Record<string, string | undefined>): Record<OtlpSignal, string | null> | null {
  if (env.OTEL_SDK_DISABLED === 'true') return null;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '') ?? '';
  const target = (signal: OtlpSignal): string | null => env[SIGNAL_VARIABLE[signal]] || (base ? `${base}/v1/${signal}` : null);
  const targets = { traces: target('traces'), metrics: target('metrics'), logs: target('logs') };
  return Object.values(targets).some((url) => url !== null) ? targets : null;
}

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs, comma-separated, values percent-encoded (W3C baggage syntax). */
export function readRelayHeaders(env: Record<string, string | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (env.OTEL_EXPORTER_OTLP_HEADERS ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      headers[pair.slice(0, at).trim().toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A malformed value is left out, as the SDK's exporter leaves it out.
    }
  }
  return headers;
}

export function createOtlpRelay(
  targets: Record<OtlpSignal, string | null>, headers: Record<string, string>, post: PostBatch,
  count: (signal: OtlpSignal, outcome: RelayOutcome) => void, limits: RelayLimits = DEFAULT_LIMITS,
): OtlpRelay {
  const queue: OtlpBatch[] = [];
  let queuedBytes = 0;
  let sending: Promise<void> | null = null;

  async function sendAll(): Promise<void> {
    for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) {
      queuedBytes -= batch.body.byteLength;
      const url = targets[batch.signal];
      if (url === null) continue;
      const outcome = await post(url, { ...headers, 'content-type': batch.contentType }, batch.body).then(
        (status): RelayOutcome => (status >= 200 && status < 300 ? 'relayed' : 'rejected'),
        (): RelayOutcome => 'unreachable',
      );
      count(batch.signal, outcome);
    }
    sending = null;
  }

  return {
    enqueue(batch) {
      if (targets[batch.signal] === null) return true;
      if (queue.length >= limits.maxBatches || queuedBytes + batch.body.byteLength > limits.maxBytes) {
        count(batch.signal, 'queue_full');
        return false;
      }
      queue.push(batch);
      queuedBytes += batch.body.byteLength;
      sending ??= sendAll();
      return true;
    },
    async drain(ms) {
      const current = sending;
      if (current === null) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); })]);
      clearTimeout(timer);
    },
  };
}
