// A provider's Message object → the canonical response (lenient: provider output is not refused).
// https://docs.anthropic.com/en/api/messages#response
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { GatewayError } from '../../errors.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { mapAnthropicUsage } from './map-usage.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { fromSafeToolId } from '../shared/safe-tool-id.js';

export function decodeAnthropicResponse(body: unknown): Decoded<CanonicalResponse> {
  if (!isPlainObject(body) || !Array.isArray(body.content)) {
    throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: 'The provider sent a message without content.' });
  }
  const warnings: TranslationWarning[] = [];
  const content: AssistantPart[] = [];
  for (const block of body.content) {
    const part = isPlainObject(block) ? decodeResponseBlock(block, warnings) : undefined;
    if (part) content.push(part);
  }
  const response: CanonicalResponse = {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason: mapAnthropicStopReason(body.stop_reason),
    usage: mapAnthropicUsage(body.usage) ?? {},
    extensions: {},
  };
  if (typeof body.stop_sequence === 'string') response.extensions.anthropic = { stop_sequence: body.stop_sequence };
  return { value: response, warnings };
}

/** One response block; also used for the stream's content_block_start. */
function decodeResponseBlock(block: JsonRecord, warnings: TranslationWarning[]): AssistantPart | undefined {
  switch (block.type) {
    case 'text':
      if (Array.isArray(block.citations) && block.citations.length > 0) warnings.push({ code: 'dropped:citations' });
      return { type: 'text', text: String(block.text ?? '') };
    case 'tool_use':
      return { type: 'tool-call', id: fromSafeToolId(String(block.id ?? '')), name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) };
    case 'thinking':
      return { type: 'reasoning', text: String(block.thinking ?? ''), signature: String(block.signature ?? ''), origin: 'anthropic' };
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: String(block.data ?? ''), origin: 'anthropic' };
    default:
      // server_tool_use, web_search_tool_result and other server-side blocks have no canonical form.
      warnings.push({ code: `dropped:${String(block.type)}` });
      return undefined;
  }
}
