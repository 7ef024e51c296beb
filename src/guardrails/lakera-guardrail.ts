// Lakera Guard v2 (https://docs.lakera.ai/docs/api/guard): POST /v2/guard {messages: [{role,
// content}], project_id?} → {flagged, breakdown?}. The texts go as messages (a request's as the
// user's, an answer's as the assistant's); flagged blocks, naming the detectors that fired when
// the breakdown lists them. Guard judges; it does not rewrite.
import { isPlainObject } from '../is-plain-object.js';
import { joinUrl, type GuardrailKind, type GuardrailTarget } from './guardrail-kind.js';
import { UnreadableVerdict, type GuardInput, type GuardrailAnswer, type GuardrailCall, type Verdict } from './guardrail-verdict.js';

export function buildLakeraRequest(target: GuardrailTarget, input: GuardInput): GuardrailCall {
  const url = /\/guard\/?$/.test(target.config.url) ? target.config.url : joinUrl(target.config.url, '/v2/guard');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.credential !== null) headers.authorization = `Bearer ${target.credential}`;
  const role = input.phase === 'pre' ? 'user' : 'assistant';
  const projectId = target.config.options?.project_id;
  const body = {
    messages: input.texts.map((text) => ({ role, content: text.text })),
    ...(projectId === undefined ? {} : { project_id: projectId }),
    breakdown: true,
  };
  return { url, headers, body: JSON.stringify(body) };
}

export function readLakeraVerdict(answer: GuardrailAnswer): Verdict {
  if (answer.status < 200 || answer.status >= 300) throw new UnreadableVerdict(`status ${answer.status}`);
  const json = answer.json;
  if (!isPlainObject(json) || typeof json.flagged !== 'boolean') throw new UnreadableVerdict('no flagged');
  if (!json.flagged) return { action: 'allow' };
  const detectors = new Set<string>();
  if (Array.isArray(json.breakdown)) {
    for (const entry of json.breakdown) if (isPlainObject(entry) && entry.detected === true && typeof entry.detector_type === 'string') detectors.add(entry.detector_type);
  }
  return { action: 'block', reason: `flagged by Lakera Guard${detectors.size > 0 ? `: ${[...detectors].sort().join(', ')}` : ''}` };
}

export const lakeraGuardrail: GuardrailKind = {
  async judge(target, input, send) {
    return readLakeraVerdict(await send(buildLakeraRequest(target, input)));
  },
};
