// After the first byte the status is sent, so an error travels as a data line carrying
// OpenAI's error object, and no [DONE] follows (what openai-node's Stream throws on).
import type { WireErrorInput } from '../../canonical/codec.js';
import { encodeOpenAiShapedStreamError } from '../shared/openai-error.js';

export function encodeCompletionsStreamError(error: WireErrorInput): string {
  return encodeOpenAiShapedStreamError(error);
}
