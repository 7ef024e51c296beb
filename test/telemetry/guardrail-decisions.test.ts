import { describe, expect, it } from 'vitest';
import { readGuardrailDecisions } from '../../src/telemetry/guardrail-decisions.js';

describe('readGuardrailDecisions', () => {
  it('reports nothing for a call no rule matched', () => {
    expect(readGuardrailDecisions({ dlp: undefined, outcome: ['ok'], warnings: [] })).toEqual([]);
  });

  it('a request rule that only logged is an audit decision on the input, naming the rules', () => {
    expect(readGuardrailDecisions({ dlp: { b_rule: 1, a_rule: 2 }, outcome: ['ok'], warnings: [] })).toEqual([
      { guardian: 'gw.dlp', target: 'llm_input', decision: 'audit', rules: ['a_rule', 'b_rule'] },
    ]);
  });

  it('a redaction is a modify decision; a block on the request is a deny with its catalog code', () => {
    expect(readGuardrailDecisions({ dlp: { email: 1 }, outcome: ['ok'], warnings: ['dlp_redacted: 1'] })[0]!.decision).toBe('modify');
    expect(readGuardrailDecisions({ dlp: { github_token: 1 }, outcome: ['GW_ERR_DLP_BLOCKED'], warnings: [] })).toEqual([
      { guardian: 'gw.dlp', target: 'llm_input', decision: 'deny', rules: ['github_token'], code: 'GW_ERR_DLP_BLOCKED' },
    ]);
  });

  it('output DLP is reported on the output; a block there denies the output, not the input', () => {
    expect(readGuardrailDecisions({ dlp: { email: 1, 'output.github_token': 1 }, outcome: ['GW_ERR_DLP_BLOCKED'], warnings: [] })).toEqual([
      { guardian: 'gw.dlp', target: 'llm_input', decision: 'audit', rules: ['email'] },
      { guardian: 'gw.dlp', target: 'llm_output', decision: 'deny', rules: ['github_token'], code: 'GW_ERR_DLP_BLOCKED' },
    ]);
  });

  it('a policy refusal is a deny; a shadow rule that would have refused is an audit', () => {
    expect(readGuardrailDecisions({ dlp: undefined, outcome: ['GW_ERR_POLICY_DENIED'], warnings: [] })).toEqual([
      { guardian: 'gw.policy', target: 'llm_input', decision: 'deny', rules: [], code: 'GW_ERR_POLICY_DENIED' },
    ]);
    expect(readGuardrailDecisions({ dlp: undefined, outcome: ['ok'], warnings: ['policy_shadow: team eng denies gpt-*'] })).toEqual([
      { guardian: 'gw.policy', target: 'llm_input', decision: 'audit', rules: [] },
    ]);
  });
});
