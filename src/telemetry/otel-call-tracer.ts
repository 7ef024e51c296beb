// CallTracer over the OpenTelemetry API: a SERVER span per gateway call named
// `{gen_ai.operation.name} {gen_ai.request.model}`, CLIENT spans per attempt, GenAI
// attributes (operation, provider, models, token usage with its cache and reasoning parts,
// the session as gen_ai.conversation.id, the agent) and gw's own (team, person, key id,
// request id, outcome), and an INTERNAL `apply_guardrail` span per DLP or policy verdict
// (guardrail-decisions.ts). Never a header, body or prompt. Contexts are passed
// explicitly (no async context manager), so nothing runs on calls that are not traced.
// https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { AttemptStart, CallEnd, CallSpan, CallStart, CallTracer } from './call-tracer.js';
import { genAiOperation, genAiProvider, guardrailAttributes, tokenAttributes } from './genai-attributes.js';

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
    const attributes: Attributes = { 'http.response.status_code': result.status, 'gw.outcome': [...result.outcome], ...tokenAttributes(result.tokens) };
    if (result.session) attributes['gen_ai.conversation.id'] = result.session;
    if (result.agent) {
      const slash = result.agent.indexOf('/');
      attributes['gen_ai.agent.name'] = slash < 0 ? result.agent : result.agent.slice(0, slash);
      if (slash > 0) attributes['gen_ai.agent.version'] = result.agent.slice(slash + 1);
    }
    if (result.provider) attributes['gw.provider'] = result.provider;
    if (result.team) attributes['gw.team'] = result.team;
    if (result.person) attributes['gw.person'] = result.person;
    if (result.keyId) attributes['gw.key_id'] = result.keyId;
    span.setAttributes(attributes);
    if (result.status >= 500 || result.status === 499) {
      span.setAttribute('error.type', result.outcome[0] ?? String(result.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    // A guardrail that refused the call still ran as it should: its span's status stays unset (the conventions' advice).
    const parent = trace.setSpan(context.active(), span);
    for (const decision of result.guardrails) {
      const guardrailAttributesOf = guardrailAttributes(decision);
      if (result.session) guardrailAttributesOf['gen_ai.conversation.id'] = result.session;
      this.tracer.startSpan(`apply_guardrail ${decision.guardian}`, { kind: SpanKind.INTERNAL, attributes: guardrailAttributesOf }, parent).end();
    }
    span.end();
  }
}
