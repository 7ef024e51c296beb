// Completions finish_reason: "stop", "length" or "content_filter".
// https://platform.openai.com/docs/api-reference/completions/object#completions/object-choices
import type { FinishReason, UnifiedFinishReason } from '../../canonical/response.js';

const UNIFIED: Record<string, UnifiedFinishReason> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content-filter',
};

export function mapCompletionsFinishReason(raw: unknown): FinishReason {
  if (typeof raw !== 'string') return { unified: 'other' };
  return { unified: UNIFIED[raw] ?? 'other', raw };
}

/** The legacy endpoint knows no tool calls or errors; "stop" is the closest honest value for them. */
export function toCompletionsFinishReason(reason: FinishReason): 'stop' | 'length' | 'content_filter' {
  if (reason.unified === 'length') return 'length';
  if (reason.unified === 'content-filter') return 'content_filter';
  return 'stop';
}
