// Chat Completions errors are OpenAI's shape (src/formats/shared/openai-error.ts).
import type { WireError, WireErrorInput } from '../../canonical/codec.js';
import { encodeOpenAiShapedError } from '../shared/openai-error.js';

export function encodeOpenAiError(error: WireErrorInput): WireError {
  return encodeOpenAiShapedError(error);
}
