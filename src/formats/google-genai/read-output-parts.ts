// What a client reads from a streamGenerateContent stream, as parts for output DLP: with
// candidateCount > 1 each event carries several candidates, so each (`candidates[].index`)
// gets its own stream decoder and its parts are tagged with it. A functionCall arrives whole,
// its args as an object: the decoder writes them as JSON text, which the scan decodes again.
import type { OutputPart, OutputPartReader, WireEvent } from '../../canonical/codec.js';
import type { StreamPart } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';
import { GoogleStreamDecoder } from './decode-stream.js';

export function createGoogleOutputPartReader(): OutputPartReader {
  const decoders = new Map<number, GoogleStreamDecoder>();
  const decoderOf = (candidate: number) => {
    let decoder = decoders.get(candidate);
    if (decoder === undefined) { decoder = new GoogleStreamDecoder(); decoders.set(candidate, decoder); }
    return decoder;
  };
  const tag = (choice: number, parts: StreamPart[], out: OutputPart[]) => { for (const part of parts) out.push({ choice, part }); };
  return {
    push(event: WireEvent) {
      const out: OutputPart[] = [];
      let chunk: unknown;
      try { chunk = JSON.parse(event.data); } catch { chunk = undefined; }
      // Not JSON, or an error: the decoder of the first candidate reads it (and its message).
      if (!isPlainObject(chunk) || chunk.error !== undefined) { tag(0, decoderOf(0).push(event), out); return out; }
      if (!Array.isArray(chunk.candidates)) return out;
      chunk.candidates.forEach((candidate: unknown, position) => {
        if (!isPlainObject(candidate)) return;
        const index = typeof candidate.index === 'number' ? candidate.index : position;
        tag(index, decoderOf(index).pushChunk({ candidates: [{ ...candidate, index: 0 }] }), out);
      });
      return out;
    },
    end() {
      const out: OutputPart[] = [];
      for (const [choice, decoder] of decoders) tag(choice, decoder.end(), out);
      return out;
    },
  };
}
