// OpenTelemetry tracing, on only when the standard OTLP variables ask for it
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SDK_DISABLED=true
// or OTEL_TRACES_EXPORTER=none turn it off). The SDK is imported only then, so a gw
// without those variables loads none of it. Spans go out in batches over OTLP/HTTP
// (the exporter reads the rest of OTEL_EXPORTER_OTLP_*: headers, timeout, protocol
// paths); the client's W3C traceparent is continued.
import type { CallTracer } from './call-tracer.js';

function tracingRequested(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export async function startTracing(env: Record<string, string | undefined>, version: string): Promise<CallTracer | null> {
  if (!tracingRequested(env)) return null;
  const [api, core, resources, sdk, exporter, tracer] = await Promise.all([
    import('@opentelemetry/api'), import('@opentelemetry/core'), import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'), import('@opentelemetry/exporter-trace-otlp-http'), import('./otel-call-tracer.js'),
  ]);
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'gw', 'service.version': version }),
    spanProcessors: [new sdk.BatchSpanProcessor(new exporter.OTLPTraceExporter())],
  });
  return tracer.createOtelCallTracer(provider.getTracer('gw', version), () => provider.shutdown());
}
