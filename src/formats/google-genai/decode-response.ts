// A GenerateContentResponse → canonical. Only the first candidate crosses.
// https://ai.google.dev/api/generate-content#generatecontentresponse
import type { CodecContext, Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { GatewayError } from '../../errors.js';
import { decodeModelPart, type CallIdSource } from './decode-parts.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { mapGoogleFinishReason } from './map-finish-reason.js';
import { mapGoogleUsage } from './map-usage.js';

/** Candidate fields with no canonical form, kept for a Gemini client. */
const CANDIDATE_EXTRAS = ['safetyRatings', 'citationMetadata', 'groundingMetadata', 'urlContextMetadata'];

/** Ids for calls Gemini sent without one: from the injected source, else derived from the response id. */
export function createCallIdSource(responseId: string, context?: CodecContext): CallIdSource {
  let count = 0;
  return () => (context ? `call_${context.ids()}` : `call_${responseId}_${count++}`);
}

/** Provider bodies that break the documented shape are the provider's fault: a 502, not a 400. */
function asUpstreamError(error: unknown): unknown {
  if (error instanceof GatewayError && error.code === 'GW_ERR_REQUEST_INVALID') {
    return new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: `Gemini response: ${error.message}`, cause: error });
  }
  return error;
}

export function decodeGoogleResponse(body: unknown, context?: CodecContext): Decoded<CanonicalResponse> {
  try {
    return decodeResponseBody(body, context);
  } catch (error) {
    throw asUpstreamError(error);
  }
}

function decodeResponseBody(body: unknown, context?: CodecContext): Decoded<CanonicalResponse> {
  if (!isPlainObject(body)) throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: 'Gemini response is not a JSON object.' });
  const warnings: TranslationWarning[] = [];
  const candidates = Array.isArray(body.candidates) ? body.candidates : [];
  if (candidates.length > 1) warnings.push({ code: 'dropped:candidates', detail: `${candidates.length - 1} extra candidates` });
  const candidate = isPlainObject(candidates[0]) ? candidates[0] : {};
  const id = typeof body.responseId === 'string' ? body.responseId : '';
  const nextId = createCallIdSource(id || 'gemini', context);
  const parts = isPlainObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
  const content: AssistantPart[] = parts.flatMap((part, index) => decodeModelPart(part, `candidates[0].content.parts[${index}]`, nextId, warnings));
  const raw = typeof candidate.finishReason === 'string' ? candidate.finishReason : blockReason(body);
  const google = collectExtras(body, candidate);
  return {
    value: {
      id,
      model: typeof body.modelVersion === 'string' ? body.modelVersion : '',
      content,
      finishReason: mapGoogleFinishReason(raw, content.some((part) => part.type === 'tool-call')),
      usage: mapGoogleUsage(body.usageMetadata) ?? {},
      extensions: Object.keys(google).length > 0 ? { google } : {},
    },
    warnings,
  };
}

/** A prompt blocked before any candidate has promptFeedback.blockReason (SAFETY, OTHER…). */
function blockReason(body: JsonRecord): string | undefined {
  return isPlainObject(body.promptFeedback) && typeof body.promptFeedback.blockReason === 'string' ? body.promptFeedback.blockReason : undefined;
}

function collectExtras(body: JsonRecord, candidate: JsonRecord): JsonRecord {
  const extras: JsonRecord = {};
  for (const key of CANDIDATE_EXTRAS) if (candidate[key] !== undefined) extras[key] = candidate[key];
  if (body.promptFeedback !== undefined) extras.promptFeedback = body.promptFeedback;
  return extras;
}
