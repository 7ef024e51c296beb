// The canonical response and stream parts. Finish reasons are kept as
// { unified, raw } (the vercel/ai way): unified for translation, raw for the audit.
import type { AssistantPart, ReasoningPart } from './request.js';
import type { Usage } from './usage.js';

export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface FinishReason {
  unified: UnifiedFinishReason;
  raw?: string;
}

export interface CanonicalResponse {
  id: string;
  model: string;
  content: AssistantPart[];
  finishReason: FinishReason;
  usage: Usage;
  extensions: Record<string, Record<string, unknown>>;
}

/** A provider or gw error, as a stream or response carries it across dialects. */
export interface CanonicalError {
  status: number;
  /** The same kinds as src/errors.ts ErrorKind. */
  kind: 'invalid_request' | 'authentication' | 'permission' | 'not_found' | 'payload_too_large' | 'unsupported_media_type'
    | 'rate_limit' | 'budget' | 'not_implemented' | 'api_error' | 'overloaded' | 'timeout';
  message: string;
  /** retry-after seconds, when the provider said. */
  retryAfterSeconds?: number;
}

/** Noun-verb stream parts; `index` is the content block's position in the response. */
export type StreamPart =
  | { type: 'response-start'; id: string; model: string }
  | { type: 'text-start'; index: number }
  | { type: 'text-delta'; index: number; delta: string }
  | { type: 'text-end'; index: number }
  | { type: 'reasoning-start'; index: number }
  | { type: 'reasoning-delta'; index: number; delta: string }
  /** The opaque continuation of a reasoning block (signature, encrypted content, redacted data). */
  | { type: 'reasoning-opaque'; index: number; signature?: string; encrypted?: string; redacted?: string; origin?: ReasoningPart['origin'] }
  | { type: 'reasoning-end'; index: number }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; finishReason: FinishReason; usage: Usage }
  | { type: 'error'; error: CanonicalError };
