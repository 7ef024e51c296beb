// What a client of this dialect reads from a stream, as parts for output DLP: one answer per
// stream, so the stream decoder's parts are all of choice 0. A custom tool's input (Codex's
// apply_patch) has no canonical form, so the decoder skips it; it is free text the client
// reads, so it is read here as a text part of its own (a negative index: not a decoder's block).
import type { OutputPart, OutputPartReader, WireEvent } from '../../canonical/codec.js';
import { isPlainObject } from '../shared/json-guards.js';
import { readOneChoice } from '../shared/read-one-choice.js';
import { ResponsesStreamDecoder } from './decode-stream.js';

export function createResponsesOutputPartReader(): OutputPartReader {
  const decoded = readOneChoice(new ResponsesStreamDecoder());
  return {
    push(event: WireEvent): OutputPart[] {
      if (!event.data.includes('custom_tool_call_input.delta')) return decoded.push(event);
      let payload: unknown;
      try { payload = JSON.parse(event.data); } catch { return decoded.push(event); }
      if (!isPlainObject(payload) || payload.type !== 'response.custom_tool_call_input.delta' || typeof payload.delta !== 'string') return decoded.push(event);
      const index = -1 - (typeof payload.output_index === 'number' ? payload.output_index : 0);
      return [{ choice: 0, part: { type: 'text-delta', index, delta: payload.delta } }];
    },
    end: () => decoded.end(),
  };
}
