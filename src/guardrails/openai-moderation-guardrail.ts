// OpenAI's moderation endpoint (https://platform.openai.com/docs/api-reference/moderations):
// POST /v1/moderations {model, input: [texts]} → {results: [{flagged, categories}]}, one result per
// input. A flagged text blocks, with the flagged categories as the reason; moderation never rewrites.
import { isPlainObject } from '../is-plain-object.js';
import { joinUrl, type GuardrailKind, type GuardrailTarget } from './guardrail-kind.js';
import { UnreadableVerdict, type GuardInput, type GuardrailAnswer, type GuardrailCall, type Verdict } from './guardrail-verdict.js';

const DEFAULT_MODEL = 'omni-moderation-latest';

export function buildModerationRequest(target: GuardrailTarget, input: GuardInput): GuardrailCall {
  const url = /\/moderations\/?$/.test(target.config.url) ? target.config.url : joinUrl(target.config.url, '/v1/moderations');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.credential !== null) headers.authorization = `Bearer ${target.credential}`;
  const model = target.config.options?.model ?? DEFAULT_MODEL;
  return { url, headers, body: JSON.stringify({ model, input: input.texts.map((text) => text.text) }) };
}

export function readModerationVerdict(answer: GuardrailAnswer): Verdict {
  if (answer.status < 200 || answer.status >= 300) throw new UnreadableVerdict(`status ${answer.status}`);
  const results = isPlainObject(answer.json) ? answer.json.results : undefined;
  if (!Array.isArray(results)) throw new UnreadableVerdict('no results list');
  const flagged = new Set<string>();
  let anyFlagged = false;
  for (const result of results) {
    if (!isPlainObject(result) || typeof result.flagged !== 'boolean') throw new UnreadableVerdict('a result has no flagged');
    if (!result.flagged) continue;
    anyFlagged = true;
    if (isPlainObject(result.categories)) for (const [category, on] of Object.entries(result.categories)) if (on === true) flagged.add(category);
  }
  if (!anyFlagged) return { action: 'allow' };
  return { action: 'block', reason: `flagged by moderation${flagged.size > 0 ? `: ${[...flagged].sort().join(', ')}` : ''}` };
}

export const openAiModerationGuardrail: GuardrailKind = {
  async judge(target, input, send) {
    return readModerationVerdict(await send(buildModerationRequest(target, input)));
  },
};
