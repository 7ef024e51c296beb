// Usage read on the side of a same-format Bedrock ConverseStream (binary event-stream frames):
// the SSE relay's decoder cannot read these frames, so without this a streamed Bedrock call had
// no tokens in its record and no cost. Frames are relayed as they are, one whole frame at a
// time (as the output DLP hold relays them); the `metadata` frame's usage is read once the
// stream ends, cache reads and writes included.
import type { DialectCodec } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { readBedrockFrames } from '../../providers/bedrock/event-stream.js';
import { drainAfterAnswer, endsAnswer } from './drain-after-answer.js';
import type { DrainCancel } from '../drain-cancel.js';

/** `afterHangUp`: the client left after messageStop, and the frames after it were read for their usage (drain-after-answer.ts). */
export async function* tapFrameUsage(
  body: AsyncIterable<Uint8Array>, codec: Pick<DialectCodec, 'createStreamUsageReader'>, onUsage: (usage: Usage | undefined, afterHangUp: boolean) => void, drain: DrainCancel | null = null,
): AsyncGenerator<Uint8Array> {
  const reader = codec.createStreamUsageReader();
  let answered = drain === null;
  const frames = drainAfterAnswer(readBedrockFrames(body), drain && { cancel: drain, read: ({ frame, event }) => {
    reader.read(event.data);
    return frame.length;
  } });
  try {
    for await (const { frame, event } of frames) {
      reader.read(event.data);
      if (!answered && endsAnswer(event)) { answered = true; drain?.holdOpen(); }
      yield frame;
    }
  } finally {
    onUsage(reader.usage(), drain?.heldAtHangUp ?? false);
  }
}
