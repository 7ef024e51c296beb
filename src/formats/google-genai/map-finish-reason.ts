// Candidate.finishReason ⇄ the unified finish reason (raw kept for the audit).
// https://ai.google.dev/api/generate-content#FinishReason
import type { FinishReason, UnifiedFinishReason } from '../../canonical/response.js';

const CONTENT_FILTER = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT']);
const KNOWN = new Set([...CONTENT_FILTER, 'STOP', 'MAX_TOKENS', 'LANGUAGE', 'OTHER', 'MALFORMED_FUNCTION_CALL',
  'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'FINISH_REASON_UNSPECIFIED']);

/** Gemini ends a function-calling turn with STOP too; the presence of a functionCall part tells them apart. */
export function mapGoogleFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  return { unified: unifyFinishReason(raw, hasToolCalls), ...(raw === undefined ? {} : { raw }) };
}

function unifyFinishReason(raw: string | undefined, hasToolCalls: boolean): UnifiedFinishReason {
  if (raw === undefined || raw === 'STOP') return hasToolCalls ? 'tool-calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (CONTENT_FILTER.has(raw)) return 'content-filter';
  if (raw === 'MALFORMED_FUNCTION_CALL') return 'error';
  return 'other';
}

/** The wire value: the raw one when it is Gemini's own, else the closest Gemini name. */
export function encodeGoogleFinishReason(finishReason: FinishReason): string {
  if (finishReason.raw !== undefined && KNOWN.has(finishReason.raw)) return finishReason.raw;
  switch (finishReason.unified) {
    case 'length': return 'MAX_TOKENS';
    case 'content-filter': return 'SAFETY';
    case 'error': return 'OTHER';
    case 'other': return 'OTHER';
    default: return 'STOP';
  }
}
