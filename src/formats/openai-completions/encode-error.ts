// The legacy Completions endpoint answers errors in OpenAI's shape too (src/formats/shared/openai-error.ts).
import type { WireError, WireErrorInput } from '../../canonical/codec.js';
import { encodeOpenAiShapedError } from '../shared/openai-error.js';

export function encodeCompletionsError(error: WireErrorInput): WireError {
  return encodeOpenAiShapedError(error);
}
