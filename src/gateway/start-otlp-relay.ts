// The relay of clients' OTLP telemetry to the collector gw exports its own spans to
// (src/telemetry/otlp-relay.ts), when the standard OTEL_EXPORTER_OTLP_* variables name one. Its
// own upstream client with short time-outs, apart from the providers' pool: a collector that
// hangs holds one socket of its own for at most a few seconds, never a model call's.
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { createOtlpRelay, readRelayHeaders, readRelayTargets, type OtlpRelay, type PostBatch } from '../telemetry/otlp-relay.js';
import { ClientCancel } from '../upstream/cancel-signal.js';
import { createUpstreamClient } from '../upstream/upstream-client.js';

const COLLECTOR_TIMEOUTS = { connectMs: 2_000, headersMs: 5_000, bodyIdleMs: 5_000 };

export interface StartedRelay {
  relay: OtlpRelay;
  /** Sends what is queued (for at most a couple of seconds), then closes the client. */
  close(): Promise<void>;
}

export function startOtlpRelay(env: Record<string, string | undefined>, metrics: GatewayMetrics): StartedRelay | null {
  const targets = readRelayTargets(env);
  if (targets === null) return null;
  const client = createUpstreamClient(COLLECTOR_TIMEOUTS);
  const post: PostBatch = async (url, headers, body) => {
    const response = await client.send({ url, method: 'POST', headers, body: Buffer.from(body), signal: new ClientCancel() });
    response.body.resume();
    return response.status;
  };
  const relay = createOtlpRelay(targets, readRelayHeaders(env), post, (signal, outcome) => metrics.telemetryRelay.inc({ signal, outcome }));
  return {
    relay,
    close: async () => {
      await relay.drain(2_000);
      await client.close();
    },
  };
}
