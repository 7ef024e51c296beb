// Output DLP's reader for a dialect whose stream carries one answer (no `n`): the stream
// decoder's own parts, all of choice 0.
import type { OutputPart, OutputPartReader, StreamDecoder } from '../../canonical/codec.js';
import type { StreamPart } from '../../canonical/response.js';

export function readOneChoice(decoder: StreamDecoder): OutputPartReader {
  const ofChoice = (parts: StreamPart[]): OutputPart[] => parts.map((part) => ({ choice: 0, part }));
  return { push: (event) => ofChoice(decoder.push(event)), end: () => ofChoice(decoder.end()) };
}
