// CallTracer over the OpenTelemetry API: a SERVER span per gateway call named
// `{gen_ai.operation.name} {gen_ai.request.model}`, CLIENT spans per attempt, GenAI
// attributes (operation, provider, models, token usage) and gw's own (team, person,
// key id, request id, outcome). Never a header, body or prompt. Contexts are passed
// explicitly (no async context manager), so nothing runs on calls that are not traced.
import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { AttemptStart, CallEnd, CallSpan, CallStart, CallTracer } from './call-tracer.js';
import { genAiOperation, genAiProvider } from './genai-attributes.js';

const headerGetter = {
  keys: (carrier: CallStart['headers']) => Object.keys(carrier),
  get: (carrier: CallStart['headers'], key: string) => carrier[key.toLowerCase()],
};

export function createOtelCallTracer(tracer: Tracer, shutdown: () => Promise<void>): CallTracer {
  return {
    startCall(call) {
      const parent = propagation.extract(context.active(), call.headers, headerGetter);
      const operation = genAiOperation(call.operation);
      const span = tracer.startSpan(operation, {
        kind: SpanKind.SERVER,
        attributes: {
          'gen_ai.operation.name': operation, 'http.request.method': call.method, 'http.route': call.route,
          'gw.operation': call.operation, 'gw.request_id': call.requestId,
        },
      }, parent);
      return new OtelCallSpan(tracer, span, operation);
    },
    shutdown,
  };
}

class OtelCallSpan implements CallSpan {
  readonly traceId: string;

  constructor(private readonly tracer: Tracer, private readonly span: Span, private readonly operation: string) {
    this.traceId = span.spanContext().traceId;
  }

  startAttempt(attempt: AttemptStart) {
    const attributes: Attributes = { 'gen_ai.operation.name': this.operation, 'gen_ai.provider.name': genAiProvider(attempt.kind), 'gw.provider': attempt.provider };
    if (attempt.model) attributes['gen_ai.request.model'] = attempt.model;
    const child = this.tracer.startSpan(`${this.operation}${attempt.model ? ` ${attempt.model}` : ''}`, { kind: SpanKind.CLIENT, attributes }, trace.setSpan(context.active(), this.span));
    return {
      end(result: { status?: number; error?: string }) {
        if (result.status !== undefined) child.setAttribute('http.response.status_code', result.status);
        const failed = result.error ?? (result.status !== undefined && result.status >= 400 ? String(result.status) : undefined);
        if (failed !== undefined) {
          child.setAttribute('error.type', failed);
          child.setStatus({ code: SpanStatusCode.ERROR });
        }
        child.end();
      },
    };
  }

  end(result: CallEnd): void {
    const { span } = this;
    if (result.model) {
      span.setAttribute('gen_ai.request.model', result.model);
      span.updateName(`${this.operation} ${result.model}`);
    }
    const attributes: Attributes = { 'http.response.status_code': result.status, 'gw.outcome': [...result.outcome] };
    if (result.tokens?.input !== undefined) attributes['gen_ai.usage.input_tokens'] = result.tokens.input;
    if (result.tokens?.output !== undefined) attributes['gen_ai.usage.output_tokens'] = result.tokens.output;
    if (result.provider) attributes['gw.provider'] = result.provider;
    if (result.team) attributes['gw.team'] = result.team;
    if (result.person) attributes['gw.person'] = result.person;
    if (result.keyId) attributes['gw.key_id'] = result.keyId;
    span.setAttributes(attributes);
    if (result.status >= 500 || result.status === 499) {
      span.setAttribute('error.type', result.outcome[0] ?? String(result.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}
