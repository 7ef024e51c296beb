// What a client of this dialect reads from a stream, as parts for output DLP: one answer per
// stream, so the stream decoder's parts are all of choice 0.
import type { OutputPartReader } from '../../canonical/codec.js';
import { readOneChoice } from '../shared/read-one-choice.js';
import { createBedrockStreamDecoder } from './decode-stream.js';

export function createBedrockOutputPartReader(): OutputPartReader {
  return readOneChoice(createBedrockStreamDecoder());
}
