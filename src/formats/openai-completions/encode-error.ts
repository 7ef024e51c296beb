// The legacy Completions endpoint answers errors in OpenAI's shape too (src/formats/shared/openai-error.ts).
import type { GatewayError } from '../../errors.js';
import { encodeOpenAiShapedError } from '../shared/openai-error.js';
import type { WireError } from '../wire-error.js';

export { encodeCanonicalOpenAiError as encodeCanonicalCompletionsError } from '../shared/openai-error.js';

export function encodeCompletionsError(error: GatewayError): WireError {
  return encodeOpenAiShapedError(error);
}
