// gw's DLP and policy verdicts on one call, in the shape the OpenTelemetry GenAI conventions give
// guardrails (the GenAI SIG's `apply_guardrail` span, v0.1.0: a guardian, what it looked at, its
// decision): read off what the record stage already knows (the DLP rules that matched, the
// outcome, the warnings), never off the text. A call no rule matched has no decision to report.

/** `gen_ai.security.target.type`: the request's text, or the provider's answer (output DLP). */
export type GuardrailTarget = 'llm_input' | 'llm_output';

/** `gen_ai.security.decision.type`. */
export type GuardrailVerdict = 'deny' | 'modify' | 'audit';

export interface GuardrailDecision {
  /** `gen_ai.guardian.name`: gw's DLP or its policy engine. */
  guardian: 'gw.dlp' | 'gw.policy';
  target: GuardrailTarget;
  decision: GuardrailVerdict;
  /** `gen_ai.security.policy.name`: the DLP rules that matched (admin-chosen names, never matched text). */
  rules: readonly string[];
  /** `gen_ai.security.decision.code`: the catalog code of a refusal. */
  code?: string;
}

export interface GovernedCall {
  /** Rule id → matches; output DLP's rules are counted as `output.<rule>`. */
  dlp: Readonly<Record<string, number>> | undefined;
  outcome: readonly string[];
  warnings: readonly string[];
}

const OUTPUT_PREFIX = 'output.';
const DLP_BLOCKED = 'GW_ERR_DLP_BLOCKED';
const POLICY_DENIED = 'GW_ERR_POLICY_DENIED';

export function readGuardrailDecisions(call: GovernedCall): GuardrailDecision[] {
  const decisions: GuardrailDecision[] = [];
  const rules = Object.keys(call.dlp ?? {});
  const input = rules.filter((rule) => !rule.startsWith(OUTPUT_PREFIX)).sort();
  const output = rules.filter((rule) => rule.startsWith(OUTPUT_PREFIX)).map((rule) => rule.slice(OUTPUT_PREFIX.length)).sort();
  const blocked = call.outcome.includes(DLP_BLOCKED);
  // A block ends the call where it is found: on the answer when output rules matched, else on the request.
  if (input.length > 0) {
    const deny = blocked && output.length === 0;
    const redacted = call.warnings.some((warning) => warning.startsWith('dlp_redacted'));
    decisions.push({ guardian: 'gw.dlp', target: 'llm_input', decision: deny ? 'deny' : redacted ? 'modify' : 'audit', rules: input, ...(deny ? { code: DLP_BLOCKED } : {}) });
  }
  if (output.length > 0) decisions.push({ guardian: 'gw.dlp', target: 'llm_output', decision: blocked ? 'deny' : 'audit', rules: output, ...(blocked ? { code: DLP_BLOCKED } : {}) });
  if (call.outcome.includes(POLICY_DENIED)) decisions.push({ guardian: 'gw.policy', target: 'llm_input', decision: 'deny', rules: [], code: POLICY_DENIED });
  // A shadow rule would have refused the call: reported, not enforced.
  else if (call.warnings.some((warning) => warning.startsWith('policy_shadow'))) decisions.push({ guardian: 'gw.policy', target: 'llm_input', decision: 'audit', rules: [] });
  return decisions;
}
