// What gw reads of one OTLP export request (JSON, or protobuf decoded by otlp-schema.ts: the
// same field names) for the record and the metrics: how many resources and items (spans, metric
// data points, log records) it holds, and the sessions it speaks for (Claude Code puts its
// `session.id` on every data point and log record). Counts and ids only, never a value. Pure.
import type { OtlpSignal } from './otlp-schema.js';

export interface OtlpBatchSummary {
  resources: number;
  /** Spans, metric data points or log records. */
  items: number;
  /** The distinct `session.id` attribute values, in the order met (at most MAX_SESSIONS). */
  sessions: string[];
}

const MAX_SESSIONS = 8;
const SESSION_KEY = 'session.id';
const METRIC_KINDS = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] as const;

/** The two levels each signal nests its items in: resource → scope → item. */
const LEVELS: Record<OtlpSignal, [resource: string, scope: string, item: string]> = {
  traces: ['resourceSpans', 'scopeSpans', 'spans'],
  metrics: ['resourceMetrics', 'scopeMetrics', 'metrics'],
  logs: ['resourceLogs', 'scopeLogs', 'logRecords'],
};

export function readOtlpBatch(signal: OtlpSignal, batch: unknown): OtlpBatchSummary {
  const [resourceKey, scopeKey, itemKey] = LEVELS[signal];
  const summary: OtlpBatchSummary = { resources: 0, items: 0, sessions: [] };
  for (const resource of listAt(batch, resourceKey)) {
    summary.resources += 1;
    noteSessions(summary, listAt(field(resource, 'resource'), 'attributes'));
    for (const scope of listAt(resource, scopeKey)) {
      for (const item of listAt(scope, itemKey)) {
        const attributed = signal === 'metrics' ? dataPointsOf(item) : [item];
        summary.items += attributed.length;
        for (const point of attributed) noteSessions(summary, listAt(point, 'attributes'));
      }
    }
  }
  return summary;
}

function dataPointsOf(metric: unknown): unknown[] {
  return METRIC_KINDS.flatMap((kind) => listAt(field(metric, kind), 'dataPoints'));
}

function noteSessions(summary: OtlpBatchSummary, attributes: unknown[]): void {
  for (const attribute of attributes) {
    if (field(attribute, 'key') !== SESSION_KEY) continue;
    const value = field(field(attribute, 'value'), 'stringValue');
    if (typeof value === 'string' && !summary.sessions.includes(value) && summary.sessions.length < MAX_SESSIONS) summary.sessions.push(value);
  }
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.getOwnPropertyDescriptor(value, key)?.value;
}

function listAt(value: unknown, key: string): unknown[] {
  const found = field(value, key);
  return Array.isArray(found) ? found : [];
}
