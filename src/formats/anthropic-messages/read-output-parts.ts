// What a client of this dialect reads from a stream, as parts for output DLP: one answer per
// stream, so the stream decoder's parts are all of choice 0. Blocks without a canonical form
// (server_tool_use, which the decoder skips) still show the client their input, and a
// citation its cited text: they are read here as parts of their own (a negative index: not
// a decoder's block).
import type { OutputPart, OutputPartReader, WireEvent } from '../../canonical/codec.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { readOneChoice } from '../shared/read-one-choice.js';
import { createAnthropicStreamDecoder } from './decode-stream.js';

const CANONICAL_BLOCKS = new Set(['text', 'tool_use', 'thinking', 'redacted_thinking']);

export function createAnthropicOutputPartReader(): OutputPartReader {
  const decoded = readOneChoice(createAnthropicStreamDecoder());
  /** Wire indexes of the blocks the decoder skips. */
  const skipped = new Set<number>();
  const extra = (data: JsonRecord): OutputPart[] => {
    const wire = Number(data.index);
    const index = -1 - wire;
    const delta = isPlainObject(data.delta) ? data.delta : {};
    if (data.type === 'content_block_start' && isPlainObject(data.content_block) && !CANONICAL_BLOCKS.has(String(data.content_block.type))) skipped.add(wire);
    if (data.type === 'content_block_delta' && delta.type === 'input_json_delta' && skipped.has(wire) && typeof delta.partial_json === 'string') {
      return [{ choice: 0, part: { type: 'tool-call-delta', index, argumentsDelta: delta.partial_json } }];
    }
    if (data.type === 'content_block_delta' && delta.type === 'citations_delta' && isPlainObject(delta.citation) && typeof delta.citation.cited_text === 'string') {
      return [{ choice: 0, part: { type: 'text-delta', index, delta: delta.citation.cited_text } }, { choice: 0, part: { type: 'text-end', index } }];
    }
    if (data.type === 'content_block_stop' && skipped.delete(wire)) return [{ choice: 0, part: { type: 'tool-call-end', index } }];
    return [];
  };
  return {
    push(event: WireEvent): OutputPart[] {
      const parts = decoded.push(event);
      if (!event.data.includes('content_block')) return parts;
      let data: unknown;
      try { data = JSON.parse(event.data); } catch { return parts; }
      return isPlainObject(data) ? [...parts, ...extra(data)] : parts;
    },
    end: () => decoded.end(),
  };
}
