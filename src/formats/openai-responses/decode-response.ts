// A Responses API response object → canonical.
// https://platform.openai.com/docs/api-reference/responses/object
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { GatewayError } from '../../errors.js';
import { decodeContentPart } from './decode-content.js';
import { decodeReasoningItem, NAMESPACE_SEPARATOR } from './decode-input.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { mapResponsesFinishReason } from './map-finish-reason.js';
import { mapResponsesUsage } from './map-usage.js';

export function decodeResponsesResponse(body: unknown): Decoded<CanonicalResponse> {
  if (!isPlainObject(body)) throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: 'Responses body is not a JSON object.' });
  try {
    const warnings: TranslationWarning[] = [];
    const output = Array.isArray(body.output) ? body.output : [];
    const content = output.flatMap((item, index) => decodeOutputItem(item, `output[${index}]`, warnings));
    const status = typeof body.status === 'string' ? body.status : undefined;
    const incomplete = isPlainObject(body.incomplete_details) && typeof body.incomplete_details.reason === 'string' ? body.incomplete_details.reason : undefined;
    return {
      value: {
        id: typeof body.id === 'string' ? body.id : '',
        model: typeof body.model === 'string' ? body.model : '',
        content,
        finishReason: mapResponsesFinishReason(status, incomplete, content.some((part) => part.type === 'tool-call')),
        usage: mapResponsesUsage(body.usage) ?? {},
        extensions: {},
      },
      warnings,
    };
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'GW_ERR_REQUEST_INVALID') {
      throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: `Responses body: ${error.message}`, cause: error });
    }
    throw error;
  }
}

function decodeOutputItem(value: unknown, param: string, warnings: TranslationWarning[]): AssistantPart[] {
  if (!isPlainObject(value)) return [];
  const item: JsonRecord = value;
  if (item.type === 'message') {
    const parts = Array.isArray(item.content) ? item.content : [];
    return parts.flatMap((part, index) => {
      const decoded = decodeContentPart(part, `${param}.content[${index}]`, warnings);
      return decoded?.type === 'text' ? [decoded] : [];
    });
  }
  if (item.type === 'function_call') {
    const name = `${typeof item.namespace === 'string' ? `${item.namespace}${NAMESPACE_SEPARATOR}` : ''}${String(item.name)}`;
    return [{ type: 'tool-call', id: String(item.call_id), name, arguments: typeof item.arguments === 'string' ? item.arguments : '' }];
  }
  if (item.type === 'reasoning') return [decodeReasoningItem(item, param, [])];
  // web_search_call, file_search_call…: the provider ran them; their results are in the message.
  warnings.push({ code: `dropped:item.${String(item.type)}` });
  return [];
}
