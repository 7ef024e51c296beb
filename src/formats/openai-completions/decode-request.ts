// Client side: a legacy /v1/completions body → canonical. The prompt becomes one user
// text message; completions-only knobs ride in extensions.openai.
// https://platform.openai.com/docs/api-reference/completions/create
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest } from '../../canonical/request.js';
import {
  invalid, isPlainObject, missing, optionalBoolean, optionalInteger, optionalNumber, optionalStringOrArray, optionalString, type JsonRecord,
} from '../shared/json-guards.js';

/** Fields only this endpoint has; kept so a completions provider gets them back unchanged. */
export const COMPLETIONS_EXTENSION_FIELDS = [
  'suffix', 'echo', 'logprobs', 'n', 'best_of', 'presence_penalty', 'frequency_penalty', 'seed', 'logit_bias', 'stream_options',
] as const;

export function decodeCompletionsRequest(body: unknown, options: { model: string; stream: boolean }): Decoded<CanonicalRequest> {
  if (!isPlainObject(body)) throw invalid('body', 'a JSON object');
  const warnings: TranslationWarning[] = [];
  const prompt = readPrompt(body.prompt, warnings);
  const request: CanonicalRequest = {
    model: options.model,
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    stream: options.stream,
    extensions: {},
  };
  assignDefined(request, {
    maxOutputTokens: optionalInteger(body.max_tokens, 'max_tokens', 0),
    temperature: optionalNumber(body.temperature, 'temperature'),
    topP: optionalNumber(body.top_p, 'top_p'),
    stopSequences: optionalStringOrArray(body.stop, 'stop'),
    user: optionalString(body.user, 'user'),
  });
  const extension = readExtension(body);
  if (Object.keys(extension).length > 0) request.extensions.openai = extension;
  return { value: request, warnings };
}

// prompt: a string or an array of strings; token arrays need OpenAI's own tokenizer, so they are refused.
function readPrompt(prompt: unknown, warnings: TranslationWarning[]): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt) && prompt.length > 0 && prompt.every((item) => typeof item === 'string')) {
    if (prompt.length > 1) {
      warnings.push({ code: 'dropped:prompt-batch', detail: `only the first of ${prompt.length} prompts is sent; batched prompts need one call each` });
    }
    return prompt[0] as string;
  }
  if (prompt === undefined || prompt === null) throw missing('prompt');
  throw invalid('prompt', 'a string or a non-empty array of strings (token arrays are not supported by this gateway)');
}

function readExtension(body: JsonRecord): Record<string, unknown> {
  optionalString(body.suffix, 'suffix');
  optionalBoolean(body.echo, 'echo');
  optionalInteger(body.logprobs, 'logprobs', 0);
  optionalInteger(body.n, 'n', 0);
  optionalInteger(body.best_of, 'best_of', 0);
  optionalNumber(body.presence_penalty, 'presence_penalty');
  optionalNumber(body.frequency_penalty, 'frequency_penalty');
  optionalInteger(body.seed, 'seed', 0);
  if (body.logit_bias !== undefined && body.logit_bias !== null && !isPlainObject(body.logit_bias)) throw invalid('logit_bias', 'an object');
  if (body.stream_options !== undefined && body.stream_options !== null && !isPlainObject(body.stream_options)) {
    throw invalid('stream_options', 'an object');
  }
  const extension: Record<string, unknown> = {};
  for (const key of COMPLETIONS_EXTENSION_FIELDS) {
    if (body[key] !== undefined && body[key] !== null) extension[key] = body[key];
  }
  return extension;
}

function assignDefined(target: CanonicalRequest, fields: Partial<CanonicalRequest>): void {
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (target as unknown as Record<string, unknown>)[key] = value;
  }
}
