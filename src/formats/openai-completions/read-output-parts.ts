// What a client reads from a text_completion stream, as parts for output DLP: with `n` > 1
// (or best_of) the chunks of several choices interleave, each `choices[].index` its own text.
// The stream decoder reads choice 0 only, so the choices' text is read here; an error chunk
// is the decoder's.
import type { OutputPart, OutputPartReader, WireEvent } from '../../canonical/codec.js';
import { isPlainObject } from '../shared/json-guards.js';
import { createCompletionsStreamDecoder } from './decode-stream.js';

export function createCompletionsOutputPartReader(): OutputPartReader {
  const errors = createCompletionsStreamDecoder();
  return {
    push(event: WireEvent) {
      let chunk: unknown;
      try { chunk = JSON.parse(event.data); } catch { return []; }
      if (!isPlainObject(chunk)) return [];
      if (chunk.error !== undefined) return errors.push(event).map((part) => ({ choice: 0, part }));
      const out: OutputPart[] = [];
      if (!Array.isArray(chunk.choices)) return out;
      chunk.choices.forEach((choice: unknown, position) => {
        if (!isPlainObject(choice) || typeof choice.text !== 'string' || choice.text === '') return;
        out.push({ choice: typeof choice.index === 'number' ? choice.index : position, part: { type: 'text-delta', index: 0, delta: choice.text } });
      });
      return out;
    },
    end: () => [],
  };
}
