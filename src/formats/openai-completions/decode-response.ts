// Provider side: a text_completion object → canonical.
// https://platform.openai.com/docs/api-reference/completions/object
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { GatewayError } from '../../errors.js';
import { mapCompletionsFinishReason } from './map-finish-reason.js';
import { mapCompletionsUsage } from './map-usage.js';
import { isPlainObject } from '../shared/json-guards.js';

export function decodeCompletionsResponse(body: unknown): Decoded<CanonicalResponse> {
  if (!isPlainObject(body) || !Array.isArray(body.choices)) {
    throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: 'The completions response has no choices array.' });
  }
  const warnings: TranslationWarning[] = [];
  const choice = body.choices.find((item) => isPlainObject(item) && (item.index ?? 0) === 0) as Record<string, unknown> | undefined;
  if (body.choices.length > 1) warnings.push({ code: 'dropped:choices', detail: `${body.choices.length - 1} extra choices (n > 1)` });
  if (choice?.logprobs !== undefined && choice.logprobs !== null) warnings.push({ code: 'dropped:logprobs' });
  const text = typeof choice?.text === 'string' ? choice.text : '';
  const content: AssistantPart[] = text === '' ? [] : [{ type: 'text', text }];
  const extensions: CanonicalResponse['extensions'] = {};
  if (typeof body.system_fingerprint === 'string') extensions.openai = { system_fingerprint: body.system_fingerprint };
  return {
    value: {
      id: typeof body.id === 'string' ? body.id : '',
      model: typeof body.model === 'string' ? body.model : '',
      content,
      finishReason: mapCompletionsFinishReason(choice?.finish_reason),
      usage: mapCompletionsUsage(body.usage) ?? {},
      extensions,
    },
    warnings,
  };
}
