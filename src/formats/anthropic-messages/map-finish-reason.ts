// Anthropic stop_reason ⇄ the unified finish reason, raw value kept.
// https://docs.anthropic.com/en/api/messages#response-stop-reason
import type { FinishReason, UnifiedFinishReason } from '../../canonical/response.js';

const FROM_ANTHROPIC: Record<string, UnifiedFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool-calls',
  refusal: 'content-filter',
  pause_turn: 'other',
};

const TO_ANTHROPIC: Record<UnifiedFinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  error: 'end_turn',
  other: 'end_turn',
};

export function mapAnthropicStopReason(raw: unknown): FinishReason {
  if (typeof raw !== 'string') return { unified: 'other' };
  // hasOwn: a raw value such as "constructor" must not reach Object.prototype.
  return { unified: Object.hasOwn(FROM_ANTHROPIC, raw) ? (FROM_ANTHROPIC[raw] as UnifiedFinishReason) : 'other', raw };
}

/** The raw value when it is an Anthropic value meaning the same thing, else the unified one's Anthropic name. */
export function encodeAnthropicStopReason(reason: FinishReason): string {
  if (reason.raw !== undefined && Object.hasOwn(FROM_ANTHROPIC, reason.raw) && FROM_ANTHROPIC[reason.raw] === reason.unified) return reason.raw;
  return TO_ANTHROPIC[reason.unified];
}
