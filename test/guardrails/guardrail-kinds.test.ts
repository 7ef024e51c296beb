// Each guardrail kind's request builder and verdict reader on the vendor's own shapes, and the
// answers each must refuse as unreadable (handled by the guardrail's on_error), in-process.
import { describe, expect, it } from 'vitest';
import { buildApplyGuardrailRequest, readApplyGuardrailVerdict } from '../../src/guardrails/bedrock-guardrail.js';
import type { GuardrailTarget } from '../../src/guardrails/guardrail-kind.js';
import { UnreadableVerdict, type GuardInput } from '../../src/guardrails/guardrail-verdict.js';
import { buildHttpRequest, readHttpVerdict } from '../../src/guardrails/http-guardrail.js';
import { buildLakeraRequest, readLakeraVerdict } from '../../src/guardrails/lakera-guardrail.js';
import { buildModerationRequest, readModerationVerdict } from '../../src/guardrails/openai-moderation-guardrail.js';
import { buildAnalyzeRequest, buildAnonymizeRequest, readAnalyzeFindings, readAnonymizedText } from '../../src/guardrails/presidio-guardrail.js';
import type { StoredGuardrail } from '../../src/state/guardrails.js';

const INPUT: GuardInput = {
  phase: 'pre', texts: [{ place: '/messages/0/content', text: 'hi Alice' }, { place: '/messages/1/content', text: 'second' }],
  model: 'openai/gpt-4o', team: 'eng', keyId: 'vk_1', person: null, session: 's-1', requestId: 'req-1', operation: 'chat.completions',
};

function target(kind: StoredGuardrail['kind'], options?: Record<string, string>, credential: string | null = 'the-key'): GuardrailTarget {
  return {
    config: { name: 'g', kind, url: 'https://guard.example/base/', scope: '*', when: 'pre', timeout_ms: 1000, on_error: 'open', created_at: '', ...(options ? { options } : {}) },
    credential, env: {},
  };
}

describe('http', () => {
  it('sends the texts, places and ids; reads allow, block and rewrite', () => {
    const call = buildHttpRequest(target('http'), INPUT);
    expect(call.url).toBe('https://guard.example/base/');
    expect(call.headers.authorization).toBe('Bearer the-key');
    expect(JSON.parse(call.body)).toMatchObject({ version: 1, phase: 'pre', texts: INPUT.texts, team: 'eng', key_id: 'vk_1', session: 's-1' });
    expect(readHttpVerdict({ status: 200, json: { action: 'allow' } }, INPUT)).toEqual({ action: 'allow' });
    expect(readHttpVerdict({ status: 200, json: { action: 'block', reason: '  too\nmuch ' } }, INPUT)).toEqual({ action: 'block', reason: 'too much' });
    expect(readHttpVerdict({ status: 200, json: { action: 'rewrite', texts: ['hi [P]', null] } }, INPUT)).toEqual({ action: 'rewrite', texts: ['hi [P]', null] });
  });

  it.each([
    ['an error status', { status: 500, json: { action: 'allow' } }],
    ['not JSON', { status: 200, json: undefined }],
    ['an unknown action', { status: 200, json: { action: 'maybe' } }],
    ['a rewrite of the wrong length', { status: 200, json: { action: 'rewrite', texts: ['one'] } }],
    ['a rewrite with a number', { status: 200, json: { action: 'rewrite', texts: ['one', 2] } }],
  ])('refuses %s as unreadable', (_what, answer) => {
    expect(() => readHttpVerdict(answer, INPUT)).toThrow(UnreadableVerdict);
  });
});

describe('vendor kinds', () => {
  it('openai-moderation: /v1/moderations with every text; flagged blocks with its categories', () => {
    const call = buildModerationRequest(target('openai-moderation'), INPUT);
    expect(call.url).toBe('https://guard.example/base/v1/moderations');
    expect(JSON.parse(call.body)).toEqual({ model: 'omni-moderation-latest', input: ['hi Alice', 'second'] });
    expect(readModerationVerdict({ status: 200, json: { results: [{ flagged: false }, { flagged: true, categories: { violence: true, hate: false } }] } }))
      .toEqual({ action: 'block', reason: 'flagged by moderation: violence' });
    expect(() => readModerationVerdict({ status: 200, json: { results: [{}] } })).toThrow(UnreadableVerdict);
  });

  it('lakera: /v2/guard with the texts as messages; flagged blocks with the detectors', () => {
    const call = buildLakeraRequest(target('lakera', { project_id: 'p' }), { ...INPUT, phase: 'post' });
    expect(call.url).toBe('https://guard.example/base/v2/guard');
    expect(JSON.parse(call.body)).toMatchObject({ project_id: 'p', messages: [{ role: 'assistant', content: 'hi Alice' }, { role: 'assistant', content: 'second' }] });
    expect(readLakeraVerdict({ status: 200, json: { flagged: false } })).toEqual({ action: 'allow' });
    expect(readLakeraVerdict({ status: 200, json: { flagged: true, breakdown: [{ detector_type: 'prompt_attack', detected: true }] } })).toEqual({ action: 'block', reason: 'flagged by Lakera Guard: prompt_attack' });
    expect(() => readLakeraVerdict({ status: 200, json: { verdict: 'ok' } })).toThrow(UnreadableVerdict);
  });

  it('presidio: /analyze per text, /anonymize with the findings', () => {
    const analyze = buildAnalyzeRequest(target('presidio', { language: 'de', score_threshold: '0.5' }, null), 'hi Alice');
    expect(analyze.url).toBe('https://guard.example/base/analyze');
    expect(analyze.headers.authorization).toBeUndefined();
    expect(JSON.parse(analyze.body)).toEqual({ text: 'hi Alice', language: 'de', score_threshold: 0.5 });
    const findings = readAnalyzeFindings({ status: 200, json: [{ entity_type: 'PERSON', start: 3, end: 8, score: 0.85 }] });
    expect(JSON.parse(buildAnonymizeRequest(target('presidio'), 'https://anon.example', 'hi Alice', findings).body)).toEqual({ text: 'hi Alice', analyzer_results: findings });
    expect(readAnonymizedText({ status: 200, json: { text: 'hi <PERSON>', items: [] } })).toBe('hi <PERSON>');
    expect(() => readAnalyzeFindings({ status: 200, json: { results: [] } })).toThrow(UnreadableVerdict);
  });

  it('bedrock: the apply path and body; NONE allows, a BLOCKED assessment blocks, masking alone rewrites', () => {
    const call = buildApplyGuardrailRequest(target('bedrock', { guardrail_id: 'gr1', version: '2' }), INPUT);
    expect(call.url).toBe('https://guard.example/base/guardrail/gr1/version/2/apply');
    expect(JSON.parse(call.body)).toEqual({ source: 'INPUT', content: [{ text: { text: 'hi Alice' } }, { text: { text: 'second' } }] });
    expect(readApplyGuardrailVerdict({ status: 200, json: { action: 'NONE', outputs: [] } }, INPUT)).toEqual({ action: 'allow' });
    expect(readApplyGuardrailVerdict({ status: 200, json: { action: 'GUARDRAIL_INTERVENED', outputs: [{ text: 'hi {NAME}' }, { text: 'second' }], assessments: [{ sensitiveInformationPolicy: { piiEntities: [{ action: 'ANONYMIZED' }] } }] } }, INPUT))
      .toEqual({ action: 'rewrite', texts: ['hi {NAME}', 'second'] });
    expect(readApplyGuardrailVerdict({ status: 200, json: { action: 'GUARDRAIL_INTERVENED', actionReason: 'denied topic', outputs: [{ text: 'no' }], assessments: [{ topicPolicy: { topics: [{ action: 'BLOCKED' }] } }] } }, INPUT))
      .toEqual({ action: 'block', reason: 'Bedrock guardrail: denied topic' });
    expect(() => readApplyGuardrailVerdict({ status: 200, json: { action: 'SOMETHING' } }, INPUT)).toThrow(UnreadableVerdict);
  });
});
