// Provider side: canonical → a legacy /v1/completions body. What the endpoint cannot
// express (tools, images, response formats…) is dropped with a warning.
// https://platform.openai.com/docs/api-reference/completions/create
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest } from '../../canonical/request.js';
import { COMPLETIONS_EXTENSION_FIELDS } from './decode-request.js';
import { flattenMessages, isPlainPrompt, plainPrompt } from './flatten-messages.js';

// https://platform.openai.com/docs/api-reference/completions/create#completions-create-stop: up to 4.
const MAX_STOP_SEQUENCES = 4;

export function encodeCompletionsRequest(request: CanonicalRequest): Decoded<Record<string, unknown>> {
  const warnings: TranslationWarning[] = [];
  const body: Record<string, unknown> = { model: request.model };
  body.prompt = isPlainPrompt(request) ? plainPrompt(request) : flattenMessages(request, warnings);
  if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined) body.stop = encodeStop(request.stopSequences, warnings);
  if (request.user !== undefined) body.user = request.user;
  if (request.stream) body.stream = true;
  Object.assign(body, encodeExtensions(request.extensions, warnings));
  warnUnsupported(request, warnings);
  return { value: body, warnings };
}

function encodeStop(stop: string[], warnings: TranslationWarning[]): string[] {
  if (stop.length <= MAX_STOP_SEQUENCES) return stop;
  warnings.push({ code: 'dropped:stop-sequences', detail: `${stop.length - MAX_STOP_SEQUENCES} beyond the endpoint's limit of 4` });
  return stop.slice(0, MAX_STOP_SEQUENCES);
}

function encodeExtensions(extensions: CanonicalRequest['extensions'], warnings: TranslationWarning[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const allowed = new Set<string>(COMPLETIONS_EXTENSION_FIELDS);
  for (const [dialect, fields] of Object.entries(extensions)) {
    if (dialect !== 'openai') {
      warnings.push({ code: `dropped:extension:${dialect}` });
      continue;
    }
    for (const [key, value] of Object.entries(fields)) {
      // Chat's logprobs is a boolean; here it is a count of top tokens.
      const fits = allowed.has(key) && !(key === 'logprobs' && typeof value !== 'number');
      if (fits) out[key] = value;
      else warnings.push({ code: `dropped:${key}`, detail: 'not a /v1/completions field' });
    }
  }
  return out;
}

function warnUnsupported(request: CanonicalRequest, warnings: TranslationWarning[]): void {
  if (request.tools !== undefined && request.tools.length > 0) {
    warnings.push({ code: 'dropped:tools', detail: request.tools.map((tool) => tool.name).join(', ') });
  }
  if (request.toolChoice !== undefined) warnings.push({ code: 'dropped:tool_choice' });
  if (request.topK !== undefined) warnings.push({ code: 'dropped:top_k' });
  if (request.responseFormat !== undefined && request.responseFormat.type !== 'text') {
    warnings.push({ code: 'dropped:response_format', detail: request.responseFormat.type });
  }
  if (request.reasoning !== undefined) warnings.push({ code: 'dropped:reasoning_config' });
  const cached = request.system.some((part) => part.cacheControl !== undefined)
    || request.messages.some((message) => message.content.some((part) => 'cacheControl' in part && part.cacheControl !== undefined));
  if (cached) warnings.push({ code: 'dropped:cache_control' });
}
