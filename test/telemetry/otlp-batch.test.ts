// The OTLP export requests gw reads: protobuf decoded with the OTLP v1 messages (otlp-schema.ts)
// gives the same object as OTLP/JSON, so one reader counts items and finds Claude Code's session.id;
// a redacted batch re-encodes without losing what gw knows of.
import { describe, expect, it } from 'vitest';
import { decodeOtlpRequest, encodeOtlpRequest, encodeRpcStatus } from '../../src/telemetry/otlp-schema.js';
import { readOtlpBatch } from '../../src/telemetry/read-otlp-batch.js';

const attribute = (key: string, value: string) => ({ key, value: { stringValue: value } });

const METRICS = {
  resourceMetrics: [{
    resource: { attributes: [attribute('service.name', 'claude-code')] },
    scopeMetrics: [{
      scope: { name: 'com.anthropic.claude_code', version: '2.1.197' },
      metrics: [
        { name: 'claude_code.token.usage', unit: 'tokens', sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [
          { attributes: [attribute('session.id', 's-1'), attribute('type', 'input')], asDouble: 42, timeUnixNano: '1700000000000000000' },
          { attributes: [attribute('session.id', 's-2')], asDouble: 7 },
        ] } },
        { name: 'claude_code.session.count', gauge: { dataPoints: [{ attributes: [attribute('session.id', 's-1')], asInt: '1' }] } },
      ],
    }],
  }],
};

const LOGS = {
  resourceLogs: [{ scopeLogs: [{ logRecords: [
    { body: { stringValue: 'claude_code.user_prompt' }, attributes: [attribute('session.id', 's-9'), { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }] } } }], severityNumber: 9 },
  ] }] }],
};

describe('OTLP batches', () => {
  it('a protobuf metrics batch decodes to the OTLP/JSON shape and back, byte for byte', () => {
    const bytes = encodeOtlpRequest('metrics', METRICS);
    const decoded = decodeOtlpRequest('metrics', bytes);
    expect(decoded).toMatchObject({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'claude_code.token.usage', sum: { isMonotonic: true } }, { name: 'claude_code.session.count' }] }] }] });
    expect(Buffer.from(encodeOtlpRequest('metrics', decoded)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('counts data points, spans and log records, and the distinct session.id values', () => {
    expect(readOtlpBatch('metrics', decodeOtlpRequest('metrics', encodeOtlpRequest('metrics', METRICS)))).toEqual({ resources: 1, items: 3, sessions: ['s-1', 's-2'] });
    expect(readOtlpBatch('logs', LOGS)).toEqual({ resources: 1, items: 1, sessions: ['s-9'] });
    expect(readOtlpBatch('traces', { resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'a' }, { name: 'b' }] }] }] })).toEqual({ resources: 1, items: 2, sessions: [] });
  });

  it('reads nothing out of what is not a batch', () => {
    expect(readOtlpBatch('logs', { resourceLogs: 'no' })).toEqual({ resources: 0, items: 0, sessions: [] });
    expect(readOtlpBatch('traces', null)).toEqual({ resources: 0, items: 0, sessions: [] });
  });

  it('log bodies and nested attribute values survive the round trip (what DLP reads)', () => {
    const decoded = decodeOtlpRequest('logs', encodeOtlpRequest('logs', LOGS));
    expect(JSON.stringify(decoded)).toContain('claude_code.user_prompt');
    expect(decoded).toMatchObject({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ attributes: [{}, { value: { arrayValue: { values: [{ stringValue: 'a' }] } } }] }] }] }] });
  });

  it('bytes that are not a batch are refused', () => {
    expect(() => decodeOtlpRequest('traces', Buffer.from([0x0a, 0xff, 0xff, 0xff]))).toThrow();
  });

  it('a refusal in protobuf is google.rpc.Status: code (field 1) and message (field 2)', () => {
    expect(Buffer.from(encodeRpcStatus(7, 'no')).toString('hex')).toBe('0807' + '12026e6f');
  });
});
