// What a guardrail is asked and what it answers, whatever its kind. A kind's file turns
// these into its vendor's request and reads its vendor's answer back into a Verdict.

export type GuardPhase = 'pre' | 'post';

/** One text a call carries and where: a JSON pointer into the body (RFC 6901), or `output/<choice>/<part>` for a stream. */
export interface GuardText {
  place: string;
  text: string;
}

export interface GuardInput {
  phase: GuardPhase;
  texts: readonly GuardText[];
  model: string | null;
  team: string;
  keyId: string | null;
  person: string | null;
  session: string | null;
  requestId: string;
  /** `chat.completions`, `messages`, `mcp.tools/call`…: what the call is. */
  operation: string;
}

export type Verdict =
  | { action: 'allow' }
  | { action: 'block'; reason: string }
  /** One entry per text sent, in order: the new text, or null where it stays. */
  | { action: 'rewrite'; texts: ReadonlyArray<string | null> };

/** What a kind's request builder hands the sender. */
export interface GuardrailCall {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** An answer as the sender read it: the status and the JSON body (undefined when it was not JSON). */
export interface GuardrailAnswer {
  status: number;
  json: unknown;
}

export type SendGuardrailCall = (call: GuardrailCall) => Promise<GuardrailAnswer>;

/** A verdict reader's refusal of an answer it cannot read: a failure, handled by the guardrail's on_error. */
export class UnreadableVerdict extends Error {}
