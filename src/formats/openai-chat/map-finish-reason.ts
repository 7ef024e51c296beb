// Chat finish_reason ⇄ the unified finish reason, raw value kept.
// https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
import type { FinishReason, UnifiedFinishReason } from '../../canonical/response.js';

const FROM_OPENAI: Record<string, UnifiedFinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  content_filter: 'content-filter',
};

const TO_OPENAI: Record<UnifiedFinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  error: 'stop',
  other: 'stop',
};

export function mapOpenAiFinishReason(raw: unknown): FinishReason {
  if (typeof raw !== 'string') return { unified: 'other' };
  // hasOwn: a raw value such as "constructor" must not reach Object.prototype.
  return { unified: Object.hasOwn(FROM_OPENAI, raw) ? (FROM_OPENAI[raw] as UnifiedFinishReason) : 'other', raw };
}

/** The raw value when it is a chat value meaning the same thing, else the unified one's chat name. */
export function encodeOpenAiFinishReason(reason: FinishReason): string {
  if (reason.raw !== undefined && reason.raw !== 'function_call' && Object.hasOwn(FROM_OPENAI, reason.raw) && FROM_OPENAI[reason.raw] === reason.unified) return reason.raw;
  return TO_OPENAI[reason.unified];
}
