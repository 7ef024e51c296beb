// Every gen_ai.* attribute gw sets on a span is one the conventions define: the published
// attribute registry (@opentelemetry/semantic-conventions' GenAI attributes), or, for the
// guardrail span, the GenAI SIG's guardrail conventions (v0.1.0), which that registry does
// not hold yet and which are listed here by name.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as registry from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import { guardrailAttributes, tokenAttributes } from '../../src/telemetry/genai-attributes.js';

const TELEMETRY = path.resolve(import.meta.dirname, '../../src/telemetry');

/** The GenAI SIG's apply_guardrail span (guardian identity, target, decision, policy). */
const GUARDRAIL_CONVENTIONS = new Set([
  'gen_ai.guardian.name', 'gen_ai.guardian.provider.name', 'gen_ai.security.target.type', 'gen_ai.security.decision.type',
  'gen_ai.security.decision.reason', 'gen_ai.security.decision.code', 'gen_ai.security.policy.name',
]);

const published = new Set(Object.entries(registry).filter(([name]) => name.startsWith('ATTR_GEN_AI_')).map(([, value]) => String(value)));

function namesSetIn(file: string): string[] {
  return [...readFileSync(path.join(TELEMETRY, file), 'utf8').matchAll(/'(gen_ai\.[a-z_.]+)'/g)].map((match) => match[1]!);
}

describe('GenAI attributes', () => {
  it('every gen_ai.* name in src/telemetry is in the published registry or the guardrail conventions', () => {
    const names = new Set(readdirSync(TELEMETRY).filter((file) => file.endsWith('.ts')).flatMap(namesSetIn));
    expect(names.size).toBeGreaterThan(10);
    expect(names).toContain('gen_ai.conversation.id');
    const unknown = [...names].filter((name) => !published.has(name) && !GUARDRAIL_CONVENTIONS.has(name));
    expect(unknown).toEqual([]);
  });

  it('token usage: cached reads and cache writes as their own attributes, reasoning inside output', () => {
    expect(tokenAttributes({ input: 120, output: 40, cached_read: 100, cache_write: 10, reasoning: 30 })).toEqual({
      [registry.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 120, [registry.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: 40,
      [registry.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: 100, [registry.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS]: 10,
      [registry.ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: 30,
    });
    expect(tokenAttributes(null)).toEqual({});
  });

  it('a guardrail decision names the rule and the catalog code, never content', () => {
    expect(guardrailAttributes({ guardian: 'gw.dlp', target: 'llm_output', decision: 'deny', rules: ['github_token'], code: 'GW_ERR_DLP_BLOCKED' })).toEqual({
      'gen_ai.operation.name': 'apply_guardrail', 'gen_ai.guardian.name': 'gw.dlp', 'gen_ai.guardian.provider.name': 'gw',
      'gen_ai.security.target.type': 'llm_output', 'gen_ai.security.decision.type': 'deny', 'gen_ai.security.decision.reason': 'refused',
      'gen_ai.security.decision.code': 'GW_ERR_DLP_BLOCKED', 'gen_ai.security.policy.name': 'github_token',
    });
  });
});
