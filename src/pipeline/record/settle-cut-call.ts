// Record stage, before a held call is priced: a call whose provider usage never came in full is
// given gw's estimate of what it cost (src/spend/estimate-cut-usage.ts), so its budget hold is
// released against that, never against 0, and the record says the cost is estimated. Such a
// call reached a provider that did not refuse it, and then: the client hung up (before the first
// byte, mid-stream, after finish_reason but before the usage chunk), the provider cut the stream,
// a time-out fired, or the stream ended without usage. Only while a budget holds the call: with
// none, nothing is kept on the way and nothing is estimated. A call that was cut (the client
// left, the provider's stream failed) is then charged at least its hold: the provider may bill
// what the client never saw (hidden reasoning, media it fetched), which the worst case counts and
// the relayed text does not (cost.source "hold"). A stream that ended on its own without usage
// keeps the estimate (cost.source "estimate").
import type { AuditCost, AuditTokens } from '../../audit/record.js';
import { completeUsage, estimateInputTokens, MEDIA_BLOB_TOKENS, type CountTokens } from '../../spend/estimate-cut-usage.js';
import { toAuditTokens } from '../relay/audit-tokens.js';
import { expectedMediaUnits, mediaUnitOf, type RequestFields } from '../routes/media-units.js';
import type { RequestTrace } from '../request-trace.js';

/** What the record stage knows of the request beyond its trace. */
export interface CutCall {
  operation: string;
  /** The JSON body as received; null for a multipart upload (streamed through, never held). */
  rawBody: Buffer | null;
  bytesIn: number;
}

/** Checked without an await: most calls are complete and pay nothing here. */
export function needsCutEstimate(trace: RequestTrace): boolean {
  if (!trace.budget || trace.usageEstimated || trace.usageAfterHangUp || trace.upstreamSentAt === null || trace.cost) return false;
  // A client that left mid-request is seen by the relay as an unreachable provider: the provider had the call.
  const reached = trace.relayed !== null || trace.outcome.includes('client_disconnected');
  if (trace.outcome.some((outcome) => providerRefused(outcome, reached))) return false;
  const tokens = trace.tokens;
  if (tokens === null) return true;
  if (hasUnits(tokens)) return false;
  // A stream that handed over its final event reported its usage in full; a JSON answer read whole did too.
  if (trace.relayed === null || trace.finished) return tokens.input === undefined;
  return true;
}

/** Notes the completed usage on the trace (flagged as estimated when any count is gw's). */
export async function estimateCutCall(trace: RequestTrace, call: CutCall): Promise<void> {
  const count = await loadTokenizer();
  const body = call.rawBody?.toString('utf8') ?? null;
  const unit = mediaUnitOf(call.operation);
  // A multipart call's model is in its form, read on the way up; the answer that would name it never came.
  const model = trace.requestFields?.model;
  if (typeof model === 'string' && model !== '') trace.noteFormModel(model);
  const relayed = trace.relayed ? await trace.relayed.count(count) : null;
  // A stream relayed as bytes (Bedrock frames, Gemini's JSON array) is read for usage only here.
  const completed = completeUsage(trace.tokens ?? toAuditTokens(relayed?.usage), {
    // A multipart upload is media (audio, an image) that passed through unread: the per-blob allowance.
    input: () => body !== null ? estimateInputTokens(body, count) : MEDIA_BLOB_TOKENS + Math.ceil(call.bytesIn / 1024),
    output: relayed?.tokens ?? 0,
  });
  if (!completed.estimated && unit === undefined) return trace.noteUsage(completed.tokens);
  trace.noteEstimatedUsage(unit === undefined ? completed.tokens : { ...completed.tokens, ...mediaUnits(unit, call, trace.requestFields) });
}

/**
 * After the estimate was priced (`cost`): a cut call is charged its hold when the hold is more,
 * even when the provider's counts looked whole (Anthropic's message_start reports input and one
 * output token; the rest of the bill never came).
 */
export function chargeCutAtHold(trace: RequestTrace, cost: AuditCost | null): void {
  const held = trace.budget?.held ?? 0;
  // An unknown price settles to the hold already (settleBudget); a stream that ended on its own was not cut.
  if (held === 0 || cost?.nano_usd === undefined || cost.nano_usd >= held || !wasCut(trace)) return;
  trace.noteCost({ ...cost, nano_usd: held, estimated: true, source: 'hold' });
}

/** The client left, or the provider's stream failed or timed out, before the usage came. */
function wasCut(trace: RequestTrace): boolean {
  return trace.outcome.some((outcome) => outcome === 'client_disconnected' || outcome.startsWith('GW_ERR_UPSTREAM_'));
}

/** A media call cut short is charged the units it asked for (the provider makes them all the same); audio heard, from the upload's size. */
function mediaUnits(unit: NonNullable<ReturnType<typeof mediaUnitOf>>, call: CutCall, fields: RequestFields | null): AuditTokens {
  // 16 kbit/s is about the lowest bit rate speech is stored at: no upload of this size lasts longer.
  if (unit === 'audio_seconds') return { audio_seconds: Math.max(1, Math.ceil(call.bytesIn / 2000)) };
  return expectedMediaUnits(call.operation, fields ?? {});
}

/**
 * The provider answered with an error status (it bills nothing) or could not be reached. A stream
 * that was being relayed reached it: its failure (a reset, a time-out) cut a call that ran.
 */
function providerRefused(outcome: string, reached: boolean): boolean {
  if (/^upstream_[45]\d\d$/.test(outcome) || outcome === 'GW_ERR_UPSTREAM_REJECTED') return true;
  return outcome === 'GW_ERR_UPSTREAM_UNREACHABLE' && !reached;
}

function hasUnits(tokens: AuditTokens): boolean {
  return tokens.images !== undefined || tokens.audio_seconds !== undefined || tokens.characters !== undefined;
}

/** gpt-tokenizer's o200k_base (GPT-4o's encoding), loaded on the first cut call only (about a second of start-up). */
export async function loadTokenizer(): Promise<CountTokens> {
  const { countTokens } = await import('gpt-tokenizer');
  return (text) => countTokens(text);
}
