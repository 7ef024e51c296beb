// The OTLP/HTTP protobuf messages gw reads (opentelemetry-proto v1: collector/{trace,metrics,logs}/v1
// export requests and everything they hold, and google.rpc.Status for refusals), as a protobufjs
// JSON descriptor. Field names are the proto3 JSON names (camelCase), so a decoded protobuf batch
// and an OTLP/JSON batch are the same object to the reader (read-otlp-batch.ts). Enums are read as
// int32 (the same varint on the wire). Every field of the v1 messages is listed, so a batch
// re-encoded after a DLP redaction loses nothing gw knows of.
// https://github.com/open-telemetry/opentelemetry-proto/tree/v1.5.0/opentelemetry/proto
import protobuf from 'protobufjs/light.js';

type FieldSpec = [name: string, type: string, id: number, repeated?: 'repeated'];

function message(fields: FieldSpec[], oneofs: Record<string, string[]> = {}): protobuf.INamespace & protobuf.IType {
  const described: Record<string, protobuf.IField & { rule?: string }> = {};
  for (const [name, type, id, repeated] of fields) described[name] = repeated ? { type, id, rule: 'repeated' } : { type, id };
  const grouped = Object.fromEntries(Object.entries(oneofs).map(([name, members]) => [name, { oneof: members }]));
  return { fields: described, ...(Object.keys(grouped).length > 0 ? { oneofs: grouped } : {}) };
}

const TIMES: FieldSpec[] = [['startTimeUnixNano', 'fixed64', 2], ['timeUnixNano', 'fixed64', 3]];

const COMMON = {
  AnyValue: message([
    ['stringValue', 'string', 1], ['boolValue', 'bool', 2], ['intValue', 'int64', 3], ['doubleValue', 'double', 4],
    ['arrayValue', 'ArrayValue', 5], ['kvlistValue', 'KeyValueList', 6], ['bytesValue', 'bytes', 7],
  ], { value: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] }),
  ArrayValue: message([['values', 'AnyValue', 1, 'repeated']]),
  KeyValueList: message([['values', 'KeyValue', 1, 'repeated']]),
  KeyValue: message([['key', 'string', 1], ['value', 'AnyValue', 2]]),
  InstrumentationScope: message([['name', 'string', 1], ['version', 'string', 2], ['attributes', 'KeyValue', 3, 'repeated'], ['droppedAttributesCount', 'uint32', 4]]),
  EntityRef: message([['schemaUrl', 'string', 1], ['type', 'string', 2], ['idKeys', 'string', 3, 'repeated'], ['descriptionKeys', 'string', 4, 'repeated']]),
  Resource: message([['attributes', 'KeyValue', 1, 'repeated'], ['droppedAttributesCount', 'uint32', 2], ['entityRefs', 'EntityRef', 3, 'repeated']]),
};

const TRACES = {
  ExportTraceServiceRequest: message([['resourceSpans', 'ResourceSpans', 1, 'repeated']]),
  ResourceSpans: message([['resource', 'Resource', 1], ['scopeSpans', 'ScopeSpans', 2, 'repeated'], ['schemaUrl', 'string', 3]]),
  ScopeSpans: message([['scope', 'InstrumentationScope', 1], ['spans', 'Span', 2, 'repeated'], ['schemaUrl', 'string', 3]]),
  Span: message([
    ['traceId', 'bytes', 1], ['spanId', 'bytes', 2], ['traceState', 'string', 3], ['parentSpanId', 'bytes', 4], ['flags', 'fixed32', 16],
    ['name', 'string', 5], ['kind', 'int32', 6], ['startTimeUnixNano', 'fixed64', 7], ['endTimeUnixNano', 'fixed64', 8],
    ['attributes', 'KeyValue', 9, 'repeated'], ['droppedAttributesCount', 'uint32', 10], ['events', 'SpanEvent', 11, 'repeated'],
    ['droppedEventsCount', 'uint32', 12], ['links', 'SpanLink', 13, 'repeated'], ['droppedLinksCount', 'uint32', 14], ['status', 'SpanStatus', 15],
  ]),
  SpanEvent: message([['timeUnixNano', 'fixed64', 1], ['name', 'string', 2], ['attributes', 'KeyValue', 3, 'repeated'], ['droppedAttributesCount', 'uint32', 4]]),
  SpanLink: message([
    ['traceId', 'bytes', 1], ['spanId', 'bytes', 2], ['traceState', 'string', 3], ['attributes', 'KeyValue', 4, 'repeated'],
    ['droppedAttributesCount', 'uint32', 5], ['flags', 'fixed32', 6],
  ]),
  SpanStatus: message([['message', 'string', 2], ['code', 'int32', 3]]),
};

const LOGS = {
  ExportLogsServiceRequest: message([['resourceLogs', 'ResourceLogs', 1, 'repeated']]),
  ResourceLogs: message([['resource', 'Resource', 1], ['scopeLogs', 'ScopeLogs', 2, 'repeated'], ['schemaUrl', 'string', 3]]),
  ScopeLogs: message([['scope', 'InstrumentationScope', 1], ['logRecords', 'LogRecord', 2, 'repeated'], ['schemaUrl', 'string', 3]]),
  LogRecord: message([
    ['timeUnixNano', 'fixed64', 1], ['observedTimeUnixNano', 'fixed64', 11], ['severityNumber', 'int32', 2], ['severityText', 'string', 3],
    ['body', 'AnyValue', 5], ['attributes', 'KeyValue', 6, 'repeated'], ['droppedAttributesCount', 'uint32', 7], ['flags', 'fixed32', 8],
    ['traceId', 'bytes', 9], ['spanId', 'bytes', 10], ['eventName', 'string', 12],
  ]),
};

const METRICS = {
  ExportMetricsServiceRequest: message([['resourceMetrics', 'ResourceMetrics', 1, 'repeated']]),
  ResourceMetrics: message([['resource', 'Resource', 1], ['scopeMetrics', 'ScopeMetrics', 2, 'repeated'], ['schemaUrl', 'string', 3]]),
  ScopeMetrics: message([['scope', 'InstrumentationScope', 1], ['metrics', 'Metric', 2, 'repeated'], ['schemaUrl', 'string', 3]]),
  Metric: message([
    ['name', 'string', 1], ['description', 'string', 2], ['unit', 'string', 3], ['gauge', 'Gauge', 5], ['sum', 'Sum', 7],
    ['histogram', 'Histogram', 9], ['exponentialHistogram', 'ExponentialHistogram', 10], ['summary', 'Summary', 11], ['metadata', 'KeyValue', 12, 'repeated'],
  ], { data: ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] }),
  Gauge: message([['dataPoints', 'NumberDataPoint', 1, 'repeated']]),
  Sum: message([['dataPoints', 'NumberDataPoint', 1, 'repeated'], ['aggregationTemporality', 'int32', 2], ['isMonotonic', 'bool', 3]]),
  Histogram: message([['dataPoints', 'HistogramDataPoint', 1, 'repeated'], ['aggregationTemporality', 'int32', 2]]),
  ExponentialHistogram: message([['dataPoints', 'ExponentialHistogramDataPoint', 1, 'repeated'], ['aggregationTemporality', 'int32', 2]]),
  Summary: message([['dataPoints', 'SummaryDataPoint', 1, 'repeated']]),
  NumberDataPoint: message([
    ['attributes', 'KeyValue', 7, 'repeated'], ...TIMES, ['asDouble', 'double', 4], ['asInt', 'sfixed64', 6],
    ['exemplars', 'Exemplar', 5, 'repeated'], ['flags', 'uint32', 8],
  ], { value: ['asDouble', 'asInt'] }),
  HistogramDataPoint: message([
    ['attributes', 'KeyValue', 9, 'repeated'], ...TIMES, ['count', 'fixed64', 4], ['sum', 'double', 5], ['bucketCounts', 'fixed64', 6, 'repeated'],
    ['explicitBounds', 'double', 7, 'repeated'], ['exemplars', 'Exemplar', 8, 'repeated'], ['flags', 'uint32', 10], ['min', 'double', 11], ['max', 'double', 12],
  ]),
  ExponentialHistogramDataPoint: message([
    ['attributes', 'KeyValue', 1, 'repeated'], ...TIMES, ['count', 'fixed64', 4], ['sum', 'double', 5], ['scale', 'sint32', 6],
    ['zeroCount', 'fixed64', 7], ['positive', 'Buckets', 8], ['negative', 'Buckets', 9], ['flags', 'uint32', 10],
    ['exemplars', 'Exemplar', 11, 'repeated'], ['min', 'double', 12], ['max', 'double', 13], ['zeroThreshold', 'double', 14],
  ]),
  Buckets: message([['offset', 'sint32', 1], ['bucketCounts', 'uint64', 2, 'repeated']]),
  SummaryDataPoint: message([
    ['attributes', 'KeyValue', 7, 'repeated'], ...TIMES, ['count', 'fixed64', 4], ['sum', 'double', 5],
    ['quantileValues', 'ValueAtQuantile', 6, 'repeated'], ['flags', 'uint32', 8],
  ]),
  ValueAtQuantile: message([['quantile', 'double', 1], ['value', 'double', 2]]),
  Exemplar: message([
    ['filteredAttributes', 'KeyValue', 7, 'repeated'], ['timeUnixNano', 'fixed64', 2], ['asDouble', 'double', 3], ['asInt', 'sfixed64', 6],
    ['spanId', 'bytes', 4], ['traceId', 'bytes', 5],
  ], { value: ['asDouble', 'asInt'] }),
};

/** google.rpc.Status without details (an Any gw has nothing to put in): what an OTLP/HTTP refusal carries. */
const STATUS = { RpcStatus: message([['code', 'int32', 1], ['message', 'string', 2]]) };

const ROOT = protobuf.Root.fromJSON({ nested: { ...COMMON, ...TRACES, ...LOGS, ...METRICS, ...STATUS } });

export type OtlpSignal = 'traces' | 'metrics' | 'logs';

const REQUEST_TYPE: Record<OtlpSignal, protobuf.Type> = {
  traces: ROOT.lookupType('ExportTraceServiceRequest'),
  metrics: ROOT.lookupType('ExportMetricsServiceRequest'),
  logs: ROOT.lookupType('ExportLogsServiceRequest'),
};

// 64-bit integers as decimal strings and bytes as base64, as OTLP/JSON spells them; ids as bytes
// arrays would be read as numbers, never as text a DLP rule could take for a secret.
const AS_OBJECT: protobuf.IConversionOptions = { longs: String, bytes: Array, enums: Number, defaults: false };

/** A protobuf export request as a plain object (throws on bytes that are not one). */
export function decodeOtlpRequest(signal: OtlpSignal, bytes: Uint8Array): Record<string, unknown> {
  const type = REQUEST_TYPE[signal];
  return type.toObject(type.decode(bytes), AS_OBJECT);
}

/** The plain object back to protobuf bytes (after a DLP redaction changed some of its strings). */
export function encodeOtlpRequest(signal: OtlpSignal, object: Record<string, unknown>): Uint8Array {
  const type = REQUEST_TYPE[signal];
  return type.encode(type.fromObject(object)).finish();
}

/** google.rpc.Status as protobuf: the body of an OTLP/HTTP refusal to a protobuf request. */
export function encodeRpcStatus(code: number, text: string): Uint8Array {
  const type = ROOT.lookupType('RpcStatus');
  return type.encode(type.fromObject({ code, message: text })).finish();
}
