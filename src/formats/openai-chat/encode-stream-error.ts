// After the first byte the status is sent, so an error travels as a stream event.
// OpenAI streams carry an error object on a data line, and no [DONE] follows.
import type { WireErrorInput } from '../../canonical/codec.js';
import { encodeOpenAiShapedStreamError } from '../shared/openai-error.js';

export function encodeOpenAiStreamError(error: WireErrorInput): string {
  return encodeOpenAiShapedStreamError(error);
}
