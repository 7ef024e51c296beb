// OpenAI error shape, as the Responses API returns it: {"error":{"message","type","param","code"}}.
// The shape lives in src/formats/shared/openai-error.ts, shared with Chat and Completions.
import type { WireError, WireErrorInput } from '../../canonical/codec.js';
import { encodeOpenAiShapedError } from '../shared/openai-error.js';

export function encodeResponsesError(error: WireErrorInput): WireError {
  return encodeOpenAiShapedError(error);
}
