// The relay of accepted telemetry to the collector: targets and headers as the OTLP exporter
// specification reads the variables, one sender at a time, a bounded queue whose overflow is
// dropped and counted, and a collector that fails or cannot be reached counted, never thrown.
import { describe, expect, it } from 'vitest';
import { createOtlpRelay, readRelayHeaders, readRelayTargets, type RelayOutcome } from '../../src/telemetry/otlp-relay.js';

const batch = (size = 4) => ({ signal: 'metrics' as const, contentType: 'application/x-protobuf', body: new Uint8Array(size) });
const TARGETS = { traces: null, metrics: 'http://collector/v1/metrics', logs: null };

describe('the telemetry relay', () => {
  it('reads the base endpoint, a signal\'s own endpoint and the headers', () => {
    expect(readRelayTargets({})).toBeNull();
    expect(readRelayTargets({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(readRelayTargets({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/', OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://l/logs' }))
      .toEqual({ traces: 'http://c:4318/v1/traces', metrics: 'http://c:4318/v1/metrics', logs: 'http://l/logs' });
    expect(readRelayHeaders({ OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-team = eng,bad,=x' })).toEqual({ authorization: 'Bearer abc', 'x-team': 'eng' });
  });

  it('sends each batch with its content type, one at a time, and counts what the collector said', async () => {
    const sent: string[] = [];
    const counted: RelayOutcome[] = [];
    let open = 0;
    const relay = createOtlpRelay(TARGETS, { authorization: 'x' }, async (url, headers) => {
      open += 1;
      expect(open).toBe(1);
      sent.push(`${url} ${headers['content-type']} ${headers.authorization}`);
      await new Promise((resolve) => setImmediate(resolve));
      open -= 1;
      return sent.length === 2 ? 503 : 200;
    }, (_signal, outcome) => counted.push(outcome));
    expect(relay.enqueue(batch())).toBe(true);
    expect(relay.enqueue(batch())).toBe(true);
    await relay.drain(1_000);
    expect(sent).toEqual(['http://collector/v1/metrics application/x-protobuf x', 'http://collector/v1/metrics application/x-protobuf x']);
    expect(counted).toEqual(['relayed', 'rejected']);
  });

  it('a collector that hangs fills the bounded queue; what does not fit is dropped and counted at once', async () => {
    const counted: RelayOutcome[] = [];
    let release: (status: number) => void = () => undefined;
    const relay = createOtlpRelay(TARGETS, {}, () => new Promise<number>((resolve) => { release = resolve; }), (_signal, outcome) => counted.push(outcome), { maxBatches: 2, maxBytes: 100 });
    expect(relay.enqueue(batch())).toBe(true); // taken by the sender
    expect(relay.enqueue(batch())).toBe(true);
    expect(relay.enqueue(batch())).toBe(true);
    expect(relay.enqueue(batch())).toBe(false);
    expect(counted).toEqual(['queue_full']);
    release(200);
    await new Promise((resolve) => setImmediate(resolve));
    release(200);
    await new Promise((resolve) => setImmediate(resolve));
    release(200);
    await relay.drain(1_000);
    expect(counted).toEqual(['queue_full', 'relayed', 'relayed', 'relayed']);
  });

  it('a collector that cannot be reached is counted as unreachable; a signal without a target is not sent', async () => {
    const counted: RelayOutcome[] = [];
    const relay = createOtlpRelay(TARGETS, {}, () => Promise.reject(new Error('ECONNREFUSED')), (_signal, outcome) => counted.push(outcome));
    expect(relay.enqueue({ ...batch(), signal: 'logs' })).toBe(true);
    relay.enqueue(batch());
    await relay.drain(1_000);
    expect(counted).toEqual(['unreachable']);
  });

  it('the byte bound counts too', () => {
    const relay = createOtlpRelay(TARGETS, {}, () => new Promise<number>(() => undefined), () => undefined, { maxBatches: 10, maxBytes: 10 });
    expect(relay.enqueue(batch(8))).toBe(true); // taken by the sender at once
    expect(relay.enqueue(batch(8))).toBe(true);
    expect(relay.enqueue(batch(8))).toBe(false);
  });
});
