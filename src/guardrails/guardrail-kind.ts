// The shape every kind's file has: a request builder (the vendor's request from gw's input)
// and a verdict reader (the vendor's answer to allow, block or rewrite), joined by `judge`,
// which a kind that needs two calls (Presidio: analyze, then anonymize) spells out itself.
import type { StoredGuardrail } from '../state/guardrails.js';
import type { GuardInput, SendGuardrailCall, Verdict } from './guardrail-verdict.js';

export interface GuardrailTarget {
  config: StoredGuardrail;
  /** The credential's value (an env: reference resolved), or null. Never logged. */
  credential: string | null;
  /** gw's environment, for what a kind reads by convention (Bedrock's AWS_* when no credential is set). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface GuardrailKind {
  judge(target: GuardrailTarget, input: GuardInput, send: SendGuardrailCall): Promise<Verdict>;
}

/** `base` + `path`, one slash between. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** A refusal's reason as the caller reads it: one line, bounded. */
export function shortReason(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
