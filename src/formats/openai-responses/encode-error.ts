// OpenAI error shape, as the Responses API returns it: {"error":{"message","type","param","code"}}.
// The shape lives in src/formats/shared/openai-error.ts, shared with Chat and Completions.
import type { GatewayError } from '../../errors.js';
import { encodeOpenAiShapedError } from '../shared/openai-error.js';
import type { WireError } from '../wire-error.js';

export function encodeResponsesError(error: GatewayError): WireError {
  return encodeOpenAiShapedError(error);
}
