// The usage of a call whose provider usage never came in full (a stream cut by the client,
// the provider or a time-out; a stream that ended without usage; a JSON answer the client
// did not wait for), so its budget hold is released against what it cost, never against 0
// (README: Budgets, docs/budgets-cut-calls.md). Input: what the provider reported, else every
// token of the request body as sent (its JSON framing covers the per-message tokens chat
// formats add), with base64 media counted at a per-blob allowance, not as text. Output: the
// larger of what the provider reported and the tokens of the text relayed so far. Pure: the
// tokenizer is passed in.
import type { AuditTokens } from '../audit/record.js';

/** The tokenizer's share of a body: past it, a byte counts as a token (no token is shorter than one byte). */
export const TOKENIZED_BYTES = 1024 * 1024;

/**
 * A run of base64 this long is media (an image, audio, a file), which providers bill per item or
 * per second, not per character: the largest images bill under ~1,600 tokens (Anthropic's
 * width×height/750 at 1568 px; OpenAI's high detail), audio about 600 tokens a minute, i.e.
 * well under a token per kilobyte of base64. Each blob counts MEDIA_BLOB_TOKENS plus one token a kilobyte.
 */
const BASE64_RUN = /(?:data:[\w.+-]+\/[\w.+-]+;base64,)?[A-Za-z0-9+/]{512,}={0,2}/g;
export const MEDIA_BLOB_TOKENS = 2048;

export type CountTokens = (text: string) => number;

/** The tokens a request body sends: its text tokenized, its base64 media at the per-blob allowance. */
export function estimateInputTokens(body: string, count: CountTokens): number {
  let media = 0;
  const text = body.replace(BASE64_RUN, (blob) => {
    media += MEDIA_BLOB_TOKENS + Math.ceil(blob.length / 1024);
    return ' ';
  });
  return media + countBounded(text, count);
}

/** Tokens of relayed text (deltas joined): never fewer than the deltas that carried some, each at least one token the model wrote. */
export function estimateOutputTokens(texts: readonly string[], count: CountTokens, overflowBytes = 0): number {
  let pieces = 0;
  for (const text of texts) if (text.length > 0) pieces += 1;
  return Math.max(countBounded(texts.join(''), count), pieces) + overflowBytes;
}

export interface CutUsage {
  tokens: AuditTokens;
  /** Whether any count is gw's estimate rather than the provider's own. */
  estimated: boolean;
}

/**
 * What the provider reported, completed by the estimates: input reported wins (it is exact),
 * output is the larger (a cut stream's reported output may be a first count: Anthropic's
 * message_start says 1). Reported cache and reasoning detail is kept.
 */
export function completeUsage(reported: AuditTokens | null, estimate: { input: () => number; output: number }): CutUsage {
  const input = reported?.input ?? estimate.input();
  const output = Math.max(reported?.output ?? 0, estimate.output);
  const estimated = reported?.input === undefined || output > (reported?.output ?? 0) || reported?.output === undefined;
  if (!estimated && reported) return { tokens: reported, estimated: false };
  return { tokens: { ...reported, input, output, total: input + output }, estimated: true };
}

function countBounded(text: string, count: CountTokens): number {
  if (text.length <= TOKENIZED_BYTES) return count(text);
  const head = text.slice(0, TOKENIZED_BYTES);
  return count(head) + Buffer.byteLength(text.slice(TOKENIZED_BYTES), 'utf8');
}
