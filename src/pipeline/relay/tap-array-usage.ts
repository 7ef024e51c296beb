// Usage read on the side of a same-format GenAI stream sent without alt=sse: one JSON array
// whose elements arrive over time (each with the running usageMetadata). The SSE relay cannot
// read it, so without this such a call had no tokens in its record and no cost. The bytes are
// relayed untouched; only the element being read is held (up to a bound), never the stream.
import type { DialectCodec } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { drainAfterAnswer } from './drain-after-answer.js';
import type { DrainCancel } from '../drain-cancel.js';

/** An element larger than this is not read for usage (GenAI's chunks are a few KB). */
const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;

/** `afterHangUp`: the client left after the finishReason element, and the rest was read for its usage (drain-after-answer.ts). */
export async function* tapArrayUsage(
  body: AsyncIterable<Uint8Array>, codec: Pick<DialectCodec, 'createStreamUsageReader'>, onUsage: (usage: Usage | undefined, afterHangUp: boolean) => void, drain: DrainCancel | null = null,
): AsyncGenerator<Uint8Array> {
  const reader = codec.createStreamUsageReader();
  const split = createArraySplitter((element) => {
    reader.read(element);
    if (drain !== null && element.includes('"finishReason"')) drain.holdOpen();
  });
  const decoder = new TextDecoder();
  const chunks = drainAfterAnswer(body, drain && { cancel: drain, read: (chunk: Uint8Array) => {
    split(decoder.decode(chunk, { stream: true }));
    return chunk.length;
  } });
  try {
    for await (const chunk of chunks) {
      split(decoder.decode(chunk, { stream: true }));
      yield chunk;
    }
  } finally {
    onUsage(reader.usage(), drain?.heldAtHangUp ?? false);
  }
}

/** Feeds text of a top-level JSON array; calls `onElement` with each complete element's text. */
function createArraySplitter(onElement: (text: string) => void): (text: string) => void {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let start = -1;
  let size = 0;
  return (text) => {
    start = depth >= 2 ? 0 : -1;
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index];
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '"') inString = true;
      else if (char === '{' || char === '[') {
        depth += 1;
        if (depth === 2) { start = index; parts = []; size = 0; }
      } else if (char === '}' || char === ']') {
        depth -= 1;
        if (depth === 1 && start >= 0) {
          parts.push(text.slice(start, index + 1));
          if (size + index + 1 - start <= MAX_ELEMENT_CHARS) onElement(parts.join(''));
          parts = [];
          start = -1;
        }
      }
    }
    if (depth >= 2 && start >= 0) {
      size += text.length - start;
      if (size <= MAX_ELEMENT_CHARS) parts.push(text.slice(start));
    }
  };
}
