// Output DLP over a stream read as canonical parts (src/canonical/codec.ts OutputPart), the
// same way whether the parts come from a same-format stream's reader or the translated relay's
// decoder. Each part stream, a choice's block of one kind, has its own scanner in the hold
// (createPartStreamHold); tool arguments are read as the client's JSON.parse gives them back
// (read-json-text.ts), whether they arrive whole or in deltas.
import type { OutputPart } from '../canonical/codec.js';
import type { StreamPart } from '../canonical/response.js';
import type { ActiveRule } from './find-matches.js';
import { createJsonTextReader, type JsonTextReader } from './read-json-text.js';
import { createPartStreamHold, type HoldStep, type StreamPiece } from './scan-stream-text.js';

/**
 * Every kind of text a stream part brings the client, each scanned as its own part stream.
 * The output matrix (test/dlp/output-part-matrix.test.ts) has rows for each: a kind added here
 * without its rows fails it.
 */
export const OUTPUT_PART_KINDS = ['text', 'reasoning', 'tool-name', 'tool-arguments', 'error'] as const;
export type OutputPartKind = (typeof OUTPUT_PART_KINDS)[number];

export interface OutputPartScan<T> {
  /** A carrier (an SSE event, a frame, a part) and the parts the client will read from it. */
  push(item: T, parts: readonly OutputPart[]): HoldStep<T>;
  end(): T[];
}

export function createOutputPartScan<T>(rules: readonly ActiveRule[]): OutputPartScan<T> {
  const hold = createPartStreamHold<T>(rules);
  const argumentReaders = new Map<string, JsonTextReader>();
  const argumentsText = (stream: string, delta: string) => {
    let reader = argumentReaders.get(stream);
    if (reader === undefined) { reader = createJsonTextReader(); argumentReaders.set(stream, reader); }
    return reader.push(delta);
  };
  const read = (choice: number, part: StreamPart, pieces: StreamPiece[], closes: string[]) => {
    const stream = (kind: OutputPartKind, index: number) => `${choice}:${index}:${kind}`;
    switch (part.type) {
      case 'text-delta': pieces.push({ stream: stream('text', part.index), text: part.delta }); break;
      case 'reasoning-delta': pieces.push({ stream: stream('reasoning', part.index), text: part.delta }); break;
      case 'tool-call-start':
        // A name comes whole: its stream closes with it.
        pieces.push({ stream: stream('tool-name', part.index), text: part.name });
        closes.push(stream('tool-name', part.index));
        break;
      case 'tool-call-delta': {
        const key = stream('tool-arguments', part.index);
        pieces.push({ stream: key, text: argumentsText(key, part.argumentsDelta) });
        break;
      }
      case 'text-end': closes.push(stream('text', part.index)); break;
      case 'reasoning-end': closes.push(stream('reasoning', part.index)); break;
      case 'tool-call-end': closes.push(stream('tool-arguments', part.index)); argumentReaders.delete(stream('tool-arguments', part.index)); break;
      case 'error':
        pieces.push({ stream: stream('error', 0), text: part.error.message });
        closes.push(stream('error', 0));
        break;
      default: break;
    }
  };
  return {
    push(item, parts) {
      const pieces: StreamPiece[] = [];
      const closes: string[] = [];
      for (const { choice, part } of parts) read(choice, part, pieces, closes);
      return hold.push(item, pieces, closes);
    },
    end: () => hold.end(),
  };
}
