// Response `status` + `incomplete_details.reason` ⇄ the unified finish reason.
// https://platform.openai.com/docs/api-reference/responses/object#responses/object-status
import type { FinishReason } from '../../canonical/response.js';
import type { JsonRecord } from '../shared/json-guards.js';

export function mapResponsesFinishReason(status: string | undefined, incompleteReason: string | undefined, hasToolCalls: boolean): FinishReason {
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return { unified: 'length', raw: incompleteReason };
    if (incompleteReason === 'content_filter') return { unified: 'content-filter', raw: incompleteReason };
    return { unified: 'other', raw: incompleteReason ?? status };
  }
  if (status === 'failed' || status === 'cancelled') return { unified: 'error', raw: status };
  // A completed response with function calls is a tool-calling turn (Responses has no separate reason).
  return { unified: hasToolCalls ? 'tool-calls' : 'stop', ...(status === undefined ? {} : { raw: status }) };
}

/** The terminal status, and incomplete_details, for a Responses client. */
export function encodeResponsesStatus(finishReason: FinishReason): { status: string; incomplete_details: JsonRecord | null } {
  switch (finishReason.unified) {
    case 'length': return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    case 'content-filter': return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
    case 'error': return { status: 'failed', incomplete_details: null };
    case 'other': return { status: 'incomplete', incomplete_details: { reason: finishReason.raw ?? 'other' } };
    default: return { status: 'completed', incomplete_details: null };
  }
}
