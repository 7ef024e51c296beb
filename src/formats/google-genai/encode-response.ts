// Canonical → a GenerateContentResponse for a Gemini client.
// https://ai.google.dev/api/generate-content#generatecontentresponse
import type { CodecContext } from '../../canonical/codec.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { encodeModelParts } from './encode-parts.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { encodeGoogleFinishReason } from './map-finish-reason.js';
import { encodeGoogleUsage } from './map-usage.js';

export function encodeGoogleResponse(response: CanonicalResponse, context: CodecContext): Record<string, unknown> {
  // Warnings here have no audience: a Gemini client reads every canonical part kind.
  const parts = encodeModelParts(response.content, []);
  const google = response.extensions.google ?? {};
  const candidate: JsonRecord = { content: { role: 'model', parts }, finishReason: encodeGoogleFinishReason(response.finishReason), index: 0 };
  for (const key of ['safetyRatings', 'citationMetadata', 'groundingMetadata', 'urlContextMetadata']) {
    if (google[key] !== undefined) candidate[key] = google[key];
  }
  const body: JsonRecord = { candidates: [candidate], usageMetadata: encodeGoogleUsage(response.usage) };
  if (isPlainObject(google.promptFeedback)) body.promptFeedback = google.promptFeedback;
  body.modelVersion = response.model;
  body.responseId = response.id || context.ids();
  return body;
}
