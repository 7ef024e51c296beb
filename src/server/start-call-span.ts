// The start of a call's trace: its OpenTelemetry span when tracing is on (src/telemetry/),
// and the trace id (ours, or the client's traceparent when tracing is off) noted for the
// log line and the audit record (data.trace_id).
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { RequestTrace } from '../pipeline/request-trace.js';
import { traceIdOf, type CallStart } from '../telemetry/call-tracer.js';

export function startCallSpan(services: GatewayServices, trace: RequestTrace, call: CallStart): void {
  const span = services.tracer?.startCall(call) ?? null;
  trace.span = span;
  const traceId = span?.traceId ?? traceIdOf(call.headers.traceparent);
  if (traceId !== null) trace.noteData('trace_id', traceId);
}
