// A streamed image generation or edit (`stream: true`, GPT image models) sends partial images
// and then, for each finished image, an `image_generation.completed` (or `image_edit.completed`)
// event with its size, quality and token usage. Read as the stream passes (never held back),
// those events become the answer media-units.ts counts, as a JSON answer's `data` would be:
// the images made, the last one's size and quality, and their usage summed.
// https://platform.openai.com/docs/api-reference/images-streaming
import { SseDecoder } from '../../streaming/sse-decoder.js';
import { isPlainObject as isObject } from '../../is-plain-object.js';

export interface StreamedImages {
  /** Completed images so far. */
  images: number;
  size?: unknown;
  quality?: unknown;
  /** The completed events' `usage`, summed field by field (their `input_tokens_details` too). */
  usage: Record<string, unknown> | null;
}

const COMPLETED = /^image_(generation|edit)\.completed$/;

/** Forwards every chunk unchanged, noting each completed image in `seen`. */
export async function* tapStreamedImages(body: AsyncIterable<Uint8Array>, seen: StreamedImages): AsyncGenerator<Uint8Array> {
  const decoder = new SseDecoder();
  let reading = true;
  for await (const chunk of body) {
    if (reading) {
      try {
        for (const event of decoder.push(chunk)) if (event.data.includes('.completed"')) noteCompleted(event.data, seen);
      } catch {
        // A stream the decoder cannot read is forwarded as it is; the request's n counts instead.
        reading = false;
      }
    }
    yield chunk;
  }
}

/** The answer media-units.ts reads: `data` as long as the images made; undefined when none completed. */
export function answerOf(seen: StreamedImages): Record<string, unknown> | undefined {
  if (seen.images === 0) return undefined;
  return { data: Array.from({ length: seen.images }, () => ({})), size: seen.size, quality: seen.quality, ...(seen.usage ? { usage: seen.usage } : {}) };
}

function noteCompleted(data: string, seen: StreamedImages): void {
  let event: { type?: unknown; size?: unknown; quality?: unknown; usage?: unknown };
  try { event = JSON.parse(data) as typeof event; } catch { return; }
  if (typeof event.type !== 'string' || !COMPLETED.test(event.type)) return;
  seen.images += 1;
  seen.size = event.size;
  seen.quality = event.quality;
  if (isObject(event.usage)) seen.usage = sum(seen.usage ?? {}, event.usage);
}

function sum(into: Record<string, unknown>, add: Record<string, unknown>): Record<string, unknown> {
  const total: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(add)) {
    if (typeof value === 'number') total[key] = (typeof total[key] === 'number' ? total[key] : 0) + value;
    else if (isObject(value)) total[key] = sum(isObject(total[key]) ? total[key] : {}, value);
  }
  return total;
}
