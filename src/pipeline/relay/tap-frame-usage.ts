// Usage read on the side of a same-format Bedrock ConverseStream (binary event-stream frames):
// the SSE relay's decoder cannot read these frames, so without this a streamed Bedrock call had
// no tokens in its record and no cost. Frames are relayed as they are, one whole frame at a
// time (as the output DLP hold relays them); the `metadata` frame's usage is read once the
// stream ends, cache reads and writes included.
import type { DialectCodec } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { readBedrockFrames } from '../../providers/bedrock/event-stream.js';

export async function* tapFrameUsage(body: AsyncIterable<Uint8Array>, codec: Pick<DialectCodec, 'createStreamUsageReader'>, onUsage: (usage: Usage | undefined) => void): AsyncGenerator<Uint8Array> {
  const reader = codec.createStreamUsageReader();
  try {
    for await (const { frame, event } of readBedrockFrames(body)) {
      reader.read(event.data);
      yield frame;
    }
  } finally {
    onUsage(reader.usage());
  }
}
