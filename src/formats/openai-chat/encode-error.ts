// Chat Completions errors are OpenAI's shape (src/formats/shared/openai-error.ts).
import type { GatewayError } from '../../errors.js';
import { encodeOpenAiShapedError } from '../shared/openai-error.js';
import type { WireError } from '../wire-error.js';

export { openAiErrorType } from '../shared/openai-error.js';

export function encodeOpenAiError(error: GatewayError): WireError {
  return encodeOpenAiShapedError(error);
}
