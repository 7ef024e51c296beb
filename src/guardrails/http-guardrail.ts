// The generic HTTP contract (docs/guardrails.md): gw POSTs the call's texts, with their places,
// the model and the caller's ids, to the guardrail's URL; the guardrail answers
// {"action": "allow" | "block" | "rewrite", "reason"?, "texts"?}. A rewrite's `texts` has one entry
// per text sent, in order: the new text, or null to leave it. Anything else is unreadable.
import { isPlainObject } from '../is-plain-object.js';
import { shortReason, type GuardrailKind, type GuardrailTarget } from './guardrail-kind.js';
import { UnreadableVerdict, type GuardInput, type GuardrailAnswer, type GuardrailCall, type Verdict } from './guardrail-verdict.js';

export function buildHttpRequest(target: GuardrailTarget, input: GuardInput): GuardrailCall {
  const body = {
    version: 1, guardrail: target.config.name, phase: input.phase, operation: input.operation,
    texts: input.texts.map((text) => ({ place: text.place, text: text.text })),
    model: input.model, team: input.team, key_id: input.keyId, person: input.person, session: input.session, request_id: input.requestId,
  };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.credential !== null) headers.authorization = `Bearer ${target.credential}`;
  return { url: target.config.url, headers, body: JSON.stringify(body) };
}

export function readHttpVerdict(answer: GuardrailAnswer, input: GuardInput): Verdict {
  if (answer.status < 200 || answer.status >= 300) throw new UnreadableVerdict(`status ${answer.status}`);
  const json = answer.json;
  if (!isPlainObject(json)) throw new UnreadableVerdict('not a JSON object');
  const reason = typeof json.reason === 'string' && json.reason.trim() !== '' ? shortReason(json.reason) : null;
  if (json.action === 'allow') return { action: 'allow' };
  if (json.action === 'block') return { action: 'block', reason: reason ?? 'no reason given' };
  if (json.action !== 'rewrite') throw new UnreadableVerdict('action is not allow, block or rewrite');
  const texts: unknown = json.texts;
  if (!Array.isArray(texts) || texts.length !== input.texts.length) throw new UnreadableVerdict('a rewrite needs texts, one per text sent');
  const rewritten: Array<string | null> = [];
  const entries: readonly unknown[] = texts;
  for (const text of entries) {
    if (text !== null && typeof text !== 'string') throw new UnreadableVerdict('a rewritten text is not a string or null');
    rewritten.push(text);
  }
  return { action: 'rewrite', texts: rewritten };
}

export const httpGuardrail: GuardrailKind = {
  async judge(target, input, send) {
    return readHttpVerdict(await send(buildHttpRequest(target, input)), input);
  },
};
