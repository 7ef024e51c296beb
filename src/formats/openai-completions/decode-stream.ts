// Provider side: the completions SSE stream → canonical parts. Each `data:` line is a
// text_completion chunk {id, choices:[{text, index, finish_reason}]}; with
// stream_options.include_usage a last chunk has `choices: []` and `usage`; `[DONE]` ends it.
// https://platform.openai.com/docs/api-reference/completions/create#completions-create-stream
import type { StreamDecoder, WireEvent } from '../../canonical/codec.js';
import type { FinishReason, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { decodeCompletionsError } from './decode-error.js';
import { mapCompletionsFinishReason } from './map-finish-reason.js';
import { mapCompletionsUsage } from './map-usage.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

export function createCompletionsStreamDecoder(): StreamDecoder {
  let started = false;
  let textOpen = false;
  let finished = false;
  let finishReason: FinishReason | undefined;
  let usage: Usage = {};

  function close(): StreamPart[] {
    if (finished) return [];
    finished = true;
    const parts: StreamPart[] = textOpen ? [{ type: 'text-end', index: 0 }] : [];
    textOpen = false;
    parts.push({ type: 'finish', finishReason: finishReason ?? { unified: 'other' }, usage });
    return parts;
  }

  function readChunk(chunk: JsonRecord): StreamPart[] {
    const parts: StreamPart[] = [];
    if (!started) {
      started = true;
      parts.push({ type: 'response-start', id: typeof chunk.id === 'string' ? chunk.id : '', model: typeof chunk.model === 'string' ? chunk.model : '' });
    }
    const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices.find((item) => isPlainObject(item) && (item.index ?? 0) === 0) : undefined;
    if (isPlainObject(choice)) {
      if (typeof choice.text === 'string' && choice.text !== '') {
        if (!textOpen) parts.push({ type: 'text-start', index: 0 });
        textOpen = true;
        parts.push({ type: 'text-delta', index: 0, delta: choice.text });
      }
      if (typeof choice.finish_reason === 'string') finishReason = mapCompletionsFinishReason(choice.finish_reason);
    }
    const chunkUsage = mapCompletionsUsage(chunk.usage);
    if (chunkUsage !== undefined) {
      usage = chunkUsage;
      parts.push({ type: 'usage', usage });
    }
    return parts;
  }

  return {
    push(event: WireEvent): StreamPart[] {
      if (finished) return [];
      if (event.data.trim() === '[DONE]') return close();
      let chunk: unknown;
      try {
        chunk = JSON.parse(event.data);
      } catch {
        return [];
      }
      if (!isPlainObject(chunk)) return [];
      if (isPlainObject(chunk.error)) {
        finished = true;
        return [{ type: 'error', error: decodeCompletionsError(0, chunk) }];
      }
      return readChunk(chunk);
    },
    end: () => close(),
  };
}
