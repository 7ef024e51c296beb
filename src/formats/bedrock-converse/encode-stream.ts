// Client side: canonical parts → the ConverseStream binary event stream. The events:
// messageStart {role}; per block contentBlockStart (tool use only: text and reasoning
// blocks begin with their first delta), contentBlockDelta {text | toolUse.input |
// reasoningContent}, contentBlockStop; messageStop {stopReason}; metadata {usage, metrics}.
// Errors are exception frames (throttlingException…), after which nothing follows.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
//
// The stream is binary, so this encoder offers pushBytes/endBytes; push/end return the same
// bytes as a latin1 string for callers that only know StreamEncoder (write it with
// Buffer.from(text, 'latin1'), never as UTF-8).
import type { BinaryStreamEncoder, CodecContext } from '../../canonical/codec.js';
import type { StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { encodeBedrockStreamError } from './encode-stream-error.js';
import { bytesToBinaryString, concatFrames, encodeEventFrame } from './event-stream-frames.js';
import { toBedrockStopReason } from './map-finish-reason.js';
import { toBedrockUsage } from './map-usage.js';
import { toSafeToolId } from '../shared/safe-tool-id.js';

export { isBinaryStreamEncoder, type BinaryStreamEncoder } from '../../canonical/codec.js';

export function createBedrockStreamEncoder(_options: { model: string; context: CodecContext }): BinaryStreamEncoder {
  const blockIndexes = new Map<number, number>();
  let started = false;
  let done = false;
  let usage: Usage = {};

  // Canonical indexes may skip numbers (a dropped block); Converse counts blocks from 0.
  const blockIndex = (index: number): number => {
    if (!blockIndexes.has(index)) blockIndexes.set(index, blockIndexes.size);
    return blockIndexes.get(index) ?? 0;
  };
  const delta = (index: number, value: Record<string, unknown>): Uint8Array[] =>
    [encodeEventFrame('contentBlockDelta', { contentBlockIndex: blockIndex(index), delta: value })];
  const start = (): Uint8Array[] => {
    if (started) return [];
    started = true;
    return [encodeEventFrame('messageStart', { role: 'assistant' })];
  };

  function framesFor(part: StreamPart): Uint8Array[] {
    switch (part.type) {
      case 'response-start': return start();
      case 'text-delta': return [...start(), ...delta(part.index, { text: part.delta })];
      case 'reasoning-delta': return [...start(), ...delta(part.index, { reasoningContent: { text: part.delta } })];
      case 'reasoning-opaque': return [...start(), ...opaqueDeltas(part, delta)];
      case 'tool-call-start':
        return [...start(), encodeEventFrame('contentBlockStart', {
          contentBlockIndex: blockIndex(part.index), start: { toolUse: { toolUseId: toSafeToolId(part.id), name: part.name } },
        })];
      case 'tool-call-delta': return delta(part.index, { toolUse: { input: part.argumentsDelta } });
      case 'text-end': case 'reasoning-end': case 'tool-call-end':
        return [encodeEventFrame('contentBlockStop', { contentBlockIndex: blockIndex(part.index) })];
      case 'usage':
        usage = { ...usage, ...part.usage };
        return [];
      case 'finish':
        done = true;
        return [...start(), encodeEventFrame('messageStop', { stopReason: toBedrockStopReason(part.finishReason) }),
          encodeEventFrame('metadata', { usage: toBedrockUsage({ ...usage, ...part.usage }), metrics: { latencyMs: 0 } })];
      case 'error':
        done = true;
        return [encodeBedrockStreamError(part.error)];
      default: return [];
    }
  }

  const encoder: BinaryStreamEncoder = {
    pushBytes: (part) => (done ? new Uint8Array(0) : concatFrames(framesFor(part))),
    endBytes: () => new Uint8Array(0),
    push: (part) => bytesToBinaryString(encoder.pushBytes(part)),
    end: () => bytesToBinaryString(encoder.endBytes()),
  };
  return encoder;
}

function opaqueDeltas(part: Extract<StreamPart, { type: 'reasoning-opaque' }>, delta: (index: number, value: Record<string, unknown>) => Uint8Array[]): Uint8Array[] {
  const frames: Uint8Array[] = [];
  // A Gemini thoughtSignature is not a Bedrock signature: it is not passed off as one.
  if (part.signature !== undefined && part.origin !== 'google') frames.push(...delta(part.index, { reasoningContent: { signature: part.signature } }));
  if (part.redacted !== undefined) frames.push(...delta(part.index, { reasoningContent: { redactedContent: part.redacted } }));
  return frames;
}
