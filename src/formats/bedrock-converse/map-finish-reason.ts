// Converse stopReason ⇄ canonical. https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
import type { FinishReason, UnifiedFinishReason } from '../../canonical/response.js';

const UNIFIED: Record<string, UnifiedFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool-calls',
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
};

const RAW: Record<UnifiedFinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'content_filtered',
  error: 'end_turn',
  other: 'end_turn',
};

export function mapBedrockStopReason(raw: unknown): FinishReason {
  if (typeof raw !== 'string') return { unified: 'other' };
  return { unified: UNIFIED[raw] ?? 'other', raw };
}

/** The raw Bedrock value when the reason came from Bedrock, else the nearest one. */
export function toBedrockStopReason(reason: FinishReason): string {
  if (reason.raw !== undefined && UNIFIED[reason.raw] === reason.unified) return reason.raw;
  return RAW[reason.unified];
}
