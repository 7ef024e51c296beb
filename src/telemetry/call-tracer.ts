// What the corridor asks of tracing, with no OpenTelemetry type in it: a span per gateway
// call (continuing the client's W3C trace context) and a child span per attempt at a
// provider. `null` everywhere when tracing is off, so a call costs one property read.
import type { GuardrailDecision } from './guardrail-decisions.js';

export interface CallStart {
  requestId: string;
  method: string;
  route: string;
  /** gw's operation name (chat.completions, messages, responses.create…). */
  operation: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The token counts a span carries (the audit record's tokens fit): input counts cached tokens too; reasoning is inside output. */
export interface CallTokens {
  input?: number;
  output?: number;
  cached_read?: number;
  cache_write?: number;
  reasoning?: number;
}

export interface CallEnd {
  status: number;
  model: string | null;
  provider: string | null;
  tokens: CallTokens | null;
  team: string | null;
  person: string | null;
  keyId: string | null;
  outcome: readonly string[];
  /** The coding agent's session (the record's `session`), as gen_ai.conversation.id. */
  session: string | null;
  /** The client as `name/version` (the record's `agent`). */
  agent: string | null;
  /** DLP and policy verdicts (guardrail-decisions.ts), each a child span. */
  guardrails: readonly GuardrailDecision[];
}

export interface AttemptStart {
  /** The provider instance's name and its kind (openai, anthropic, gemini…). */
  provider: string;
  kind: string;
  model: string | null;
  url?: string;
}

export interface AttemptSpan {
  end(result: { status?: number; error?: string }): void;
}

export interface CallSpan {
  /** 32 hex digits, for the log line and the audit record. */
  readonly traceId: string;
  startAttempt(attempt: AttemptStart): AttemptSpan;
  end(result: CallEnd): void;
}

export interface CallTracer {
  startCall(call: CallStart): CallSpan;
  /** Exports what is still buffered; call at shutdown. */
  shutdown(): Promise<void>;
}

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** The trace id of a client's `traceparent` header (W3C Trace Context), for logs when tracing is off. */
export function traceIdOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const id = value === undefined ? undefined : TRACEPARENT.exec(value.trim())?.[1];
  return id === undefined || /^0+$/.test(id) ? null : id;
}
