// Presidio (https://microsoft.github.io/presidio/): the analyzer's REST API, POST /analyze
// {text, language, score_threshold?} → [{entity_type, start, end, score}], once per text; with an
// anonymizer (option anonymizer_url), each text with findings goes to POST /anonymize {text,
// analyzer_results} → {text} and the call is rewritten; without one, findings block, naming the
// entity types found.
import { isPlainObject } from '../is-plain-object.js';
import { joinUrl, type GuardrailKind, type GuardrailTarget } from './guardrail-kind.js';
import { UnreadableVerdict, type GuardInput, type GuardrailAnswer, type GuardrailCall, type SendGuardrailCall, type Verdict } from './guardrail-verdict.js';

interface Finding { entity_type: string; start: number; end: number; score: number }

function headersFor(target: GuardrailTarget): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.credential !== null) headers.authorization = `Bearer ${target.credential}`;
  return headers;
}

export function buildAnalyzeRequest(target: GuardrailTarget, text: string): GuardrailCall {
  const options = target.config.options ?? {};
  const threshold = options.score_threshold === undefined ? undefined : Number(options.score_threshold);
  const body = { text, language: options.language ?? 'en', ...(threshold !== undefined && Number.isFinite(threshold) ? { score_threshold: threshold } : {}) };
  return { url: joinUrl(target.config.url, '/analyze'), headers: headersFor(target), body: JSON.stringify(body) };
}

export function readAnalyzeFindings(answer: GuardrailAnswer): Finding[] {
  if (answer.status < 200 || answer.status >= 300) throw new UnreadableVerdict(`status ${answer.status}`);
  if (!Array.isArray(answer.json)) throw new UnreadableVerdict('the analyzer did not answer a list');
  return answer.json.map((item) => {
    if (!isPlainObject(item) || typeof item.entity_type !== 'string' || typeof item.start !== 'number' || typeof item.end !== 'number') throw new UnreadableVerdict('a finding has no entity_type, start and end');
    return { entity_type: item.entity_type, start: item.start, end: item.end, score: typeof item.score === 'number' ? item.score : 1 };
  });
}

export function buildAnonymizeRequest(target: GuardrailTarget, anonymizerUrl: string, text: string, findings: readonly Finding[]): GuardrailCall {
  return { url: joinUrl(anonymizerUrl, '/anonymize'), headers: headersFor(target), body: JSON.stringify({ text, analyzer_results: findings }) };
}

export function readAnonymizedText(answer: GuardrailAnswer): string {
  if (answer.status < 200 || answer.status >= 300) throw new UnreadableVerdict(`status ${answer.status}`);
  if (!isPlainObject(answer.json) || typeof answer.json.text !== 'string') throw new UnreadableVerdict('the anonymizer answered no text');
  return answer.json.text;
}

async function judgePresidio(target: GuardrailTarget, input: GuardInput, send: SendGuardrailCall): Promise<Verdict> {
  const findings = await Promise.all(input.texts.map(async (text) => readAnalyzeFindings(await send(buildAnalyzeRequest(target, text.text)))));
  if (findings.every((found) => found.length === 0)) return { action: 'allow' };
  const anonymizerUrl = target.config.options?.anonymizer_url;
  if (anonymizerUrl === undefined) {
    const types = [...new Set(findings.flat().map((finding) => finding.entity_type))].sort();
    return { action: 'block', reason: `Presidio found ${types.join(', ')}` };
  }
  const texts = await Promise.all(input.texts.map(async (text, index) => {
    const found = findings[index] ?? [];
    return found.length === 0 ? null : readAnonymizedText(await send(buildAnonymizeRequest(target, anonymizerUrl, text.text, found)));
  }));
  return { action: 'rewrite', texts };
}

export const presidioGuardrail: GuardrailKind = { judge: judgePresidio };
