// The streamed-image tap: bytes forwarded unchanged however the stream is cut, each completed
// event counted once, the usage summed and the last size and quality kept.
import { describe, expect, it } from 'vitest';
import { answerOf, tapStreamedImages, type StreamedImages } from '../../src/pipeline/relay/image-stream-tap.js';

const event = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const usage = (input: number, image: number, output: number) => ({ input_tokens: input, input_tokens_details: { image_tokens: image, text_tokens: input - image }, output_tokens: output, total_tokens: input + output });
const STREAM = Buffer.from([
  event({ type: 'image_edit.partial_image', b64_json: 'AAAA', partial_image_index: 0 }),
  event({ type: 'image_edit.completed', b64_json: 'BBBB', size: '1024x1024', quality: 'low', usage: usage(500, 400, 50) }),
  // A text that only mentions a completed event is not one.
  event({ type: 'image_edit.partial_image', b64_json: 'CCCC', note: 'not "image_edit.completed"' }),
  event({ type: 'image_edit.completed', b64_json: 'DDDD', size: '1536x1024', quality: 'high', usage: usage(700, 600, 70) }),
].join(''));

async function run(chunks: Buffer[]): Promise<{ forwarded: Buffer; seen: StreamedImages }> {
  const seen: StreamedImages = { images: 0, usage: null };
  const out: Uint8Array[] = [];
  async function* source() { yield* chunks; }
  for await (const chunk of tapStreamedImages(source(), seen)) out.push(chunk);
  return { forwarded: Buffer.concat(out), seen };
}

describe('tapStreamedImages', () => {
  it('counts the completed images wherever the stream is cut, forwarding every byte as it came', async () => {
    for (let cut = 1; cut < STREAM.length; cut += 7) {
      const { forwarded, seen } = await run([STREAM.subarray(0, cut), STREAM.subarray(cut)]);
      expect(forwarded.equals(STREAM)).toBe(true);
      expect(seen.images).toBe(2);
    }
    const { seen } = await run([...STREAM].map((byte) => Buffer.from([byte])));
    expect(answerOf(seen)).toEqual({
      data: [{}, {}], size: '1536x1024', quality: 'high',
      usage: { input_tokens: 1_200, input_tokens_details: { image_tokens: 1_000, text_tokens: 200 }, output_tokens: 120, total_tokens: 1_320 },
    });
  });

  it('no completed event: no answer, so the request\'s n counts', async () => {
    const { seen } = await run([Buffer.from(event({ type: 'image_generation.partial_image', b64_json: 'AAAA' }))]);
    expect(answerOf(seen)).toBeUndefined();
  });
});
