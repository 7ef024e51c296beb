// Event-stream frames: encoded with the format's frame writer, read back by the provider's
// reader whatever the network chunking, with corrupt and truncated streams refused.
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../src/canonical/codec.js';
import { concatFrames, encodeEventFrame, encodeExceptionFrame } from '../../../src/formats/bedrock-converse/event-stream-frames.js';
import { decodeBedrockEventStream } from '../../../src/providers/bedrock/event-stream.js';

const EVENTS: Array<[string, unknown]> = [
  ['messageStart', { role: 'assistant' }],
  ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo 👋' } }],
  ['contentBlockStop', { contentBlockIndex: 0 }],
  ['messageStop', { stopReason: 'end_turn' }],
];
const STREAM = concatFrames([...EVENTS.map(([name, payload]) => encodeEventFrame(name, payload)), encodeExceptionFrame('throttlingException', 'slow down')]);
const EXPECTED: WireEvent[] = [
  ...EVENTS.map(([event, payload]) => ({ event, data: JSON.stringify(payload) })),
  { event: 'throttlingException', data: JSON.stringify({ message: 'slow down' }) },
];

async function* chunks(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.slice(start, cut);
    start = cut;
  }
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<WireEvent[]> {
  const events: WireEvent[] = [];
  for await (const event of decodeBedrockEventStream(source)) events.push(event);
  return events;
}

describe('decodeBedrockEventStream', () => {
  it('reads the frames in one chunk', async () => {
    expect(await collect(chunks(STREAM, []))).toEqual(EXPECTED);
  });

  it('reads the same events when the stream is split at every byte boundary', async () => {
    for (let cut = 1; cut < STREAM.length; cut += 1) {
      expect(await collect(chunks(STREAM, [cut]))).toEqual(EXPECTED);
    }
  });

  it('reads the same events when every byte arrives alone', async () => {
    expect(await collect(chunks(STREAM, Array.from({ length: STREAM.length - 1 }, (_, index) => index + 1)))).toEqual(EXPECTED);
  });

  it('refuses a stream that ends inside a frame', async () => {
    await expect(collect(chunks(STREAM.slice(0, STREAM.length - 3), []))).rejects.toMatchObject({ code: 'GW_ERR_UPSTREAM_BAD_RESPONSE' });
  });

  it('refuses a frame whose checksum does not match', async () => {
    const corrupt = STREAM.slice();
    corrupt[30] = (corrupt[30] ?? 0) ^ 0xff;
    await expect(collect(chunks(corrupt, []))).rejects.toMatchObject({ code: 'GW_ERR_UPSTREAM_BAD_RESPONSE' });
  });

  it('refuses an absurd frame length before buffering it', async () => {
    const huge = new Uint8Array([0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    await expect(collect(chunks(huge, []))).rejects.toThrow(/claims/);
  });
});
