// What a client reads from a chat.completion.chunk stream, as parts for output DLP: with
// `n` > 1 the chunks of several choices interleave, so each choice (`choices[].index`) gets
// its own stream decoder and its parts are tagged with it.
import type { OutputPart, OutputPartReader, WireEvent } from '../../canonical/codec.js';
import type { StreamPart } from '../../canonical/response.js';
import { isPlainObject } from '../shared/json-guards.js';
import { OpenAiChatStreamDecoder } from './decode-stream.js';

export function createOpenAiChatOutputPartReader(): OutputPartReader {
  const decoders = new Map<number, OpenAiChatStreamDecoder>();
  const decoderOf = (choice: number) => {
    let decoder = decoders.get(choice);
    if (decoder === undefined) { decoder = new OpenAiChatStreamDecoder(); decoders.set(choice, decoder); }
    return decoder;
  };
  const tag = (choice: number, parts: StreamPart[], out: OutputPart[]) => { for (const part of parts) out.push({ choice, part }); };
  // [DONE], an error chunk or the end: every choice hears it.
  const toAll = (read: (decoder: OpenAiChatStreamDecoder) => StreamPart[]): OutputPart[] => {
    const out: OutputPart[] = [];
    if (decoders.size === 0) decoderOf(0);
    for (const [choice, decoder] of decoders) tag(choice, read(decoder), out);
    return out;
  };
  return {
    push(event: WireEvent) {
      let chunk: unknown;
      try { chunk = JSON.parse(event.data); } catch { return toAll((decoder) => decoder.push(event)); }
      if (!isPlainObject(chunk)) return [];
      const out: OutputPart[] = [];
      // An error ends the stream: its message is read once.
      if (chunk.error !== undefined) tag(0, decoderOf(0).push(event), out);
      if (!Array.isArray(chunk.choices)) return out;
      chunk.choices.forEach((choice: unknown, position) => {
        if (!isPlainObject(choice)) return;
        const index = typeof choice.index === 'number' ? choice.index : position;
        tag(index, decoderOf(index).pushChunk({ choices: [{ ...choice, index: 0 }] }), out);
      });
      return out;
    },
    end: () => toAll((decoder) => decoder.end()),
  };
}
